import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 3.4 and 3.7: account metadata, its offer plaintext and the decoding order.
@Suite struct AccountMetadataTests {
    static func make(name: String = "n", email: String = "e@x", user: String = "u", host: String = "h",
                     port: UInt16 = 993) throws(HandoffError) -> AccountMetadata {
        try AccountMetadata(linkID: Fixtures.linkID, displayName: name, emailAddress: email, username: user,
                            imapHost: host, imapPort: port, imapSecurity: .tls)
    }

    @Test func validationNamesTheFirstFieldInSpecOrder() {
        #expect(throws: HandoffError.malformed(.displayName)) { try Self.make(name: "line\nbreak", email: "", user: "", host: "") }
        #expect(throws: HandoffError.malformed(.emailAddress)) { try Self.make(email: "", user: "", host: "", port: 0) }
        #expect(throws: HandoffError.malformed(.username)) { try Self.make(user: String(repeating: "u", count: 321), host: "") }
        #expect(throws: HandoffError.malformed(.imapHost)) { try Self.make(host: "a\u{0}b", port: 0) }
        #expect(throws: HandoffError.malformed(.imapPort)) { try Self.make(port: 0) }
        #expect(throws: Never.self) { try Self.make(name: "", port: 1) }
        #expect(throws: Never.self) { try Self.make(port: 65535) }
        #expect(AccountMetadata.maximumDisplayNameUnits == 64)
    }

    @Test func theCodecRoundTripsAndPadsToBlocksOf256() throws {
        let encoded = VectorPrimitives.offerPlaintext(Fixtures.account)
        #expect(encoded.count == 256)
        #expect(try VectorPrimitives.decodeOfferPlaintext(encoded) == Fixtures.account)
        let longest = try AccountMetadata(
            linkID: Fixtures.linkID, displayName: String(repeating: "\u{1F4EC}", count: 64),
            emailAddress: String(repeating: "a", count: 308) + "@example.org", username: String(repeating: "\u{E9}", count: 160),
            imapHost: [String](repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 61),
            imapPort: 143, imapSecurity: .startTLS)
        let longEncoded = VectorPrimitives.offerPlaintext(longest)
        #expect(longEncoded.count == 1280)  // record 1177 bytes: five blocks
        #expect(try VectorPrimitives.decodeOfferPlaintext(longEncoded) == longest)
    }

    /// The real padding boundary: a record of 254 bytes (256 with its length) fills one block,
    /// 255 bytes need two (Spec 3.4).
    @Test func aRecordOf254BytesFillsOneBlockAnd255NeedTwo() throws {
        // record = 28 bytes of fixed fields + the four strings: 226 bytes of strings give 254.
        let oneBlock = try Self.make(name: "", email: String(repeating: "a", count: 212) + "@example.org")
        #expect(VectorPrimitives.offerPlaintext(oneBlock).count == 256)
        #expect(Array(VectorPrimitives.offerPlaintext(oneBlock).prefix(2)) == [0, 254])
        let twoBlocks = try Self.make(name: "", email: String(repeating: "a", count: 213) + "@example.org")
        let encoded = VectorPrimitives.offerPlaintext(twoBlocks)
        #expect(encoded.count == 512)
        #expect(Array(encoded.prefix(2)) == [0, 255])
        #expect(try VectorPrimitives.decodeOfferPlaintext(encoded) == twoBlocks)
        // One block too many, or too few, is refused.
        #expect(throws: HandoffError.malformed(.padding)) { try VectorPrimitives.decodeOfferPlaintext(encoded + [UInt8](repeating: 0, count: 256)) }
        #expect(throws: HandoffError.malformed(.padding)) {
            try VectorPrimitives.decodeOfferPlaintext(VectorPrimitives.offerPlaintext(oneBlock) + [UInt8](repeating: 0, count: 256))
        }
    }

    /// Spec 3.4: unpad, then parse (truncation, strict UTF-8, security byte, trailing bytes),
    /// then validate the fields in order, port 0 last.
    @Test func decodingErrorsComeInTheSpecsOrder() {
        var record = OfferRecord()
        let valid = record.plaintext
        var nonZeroPadding = valid
        nonZeroPadding[255] = 1
        var wrongLength = valid
        wrongLength[1] = 0xFF
        let cases: [(String, [UInt8], HandoffError.Field)] = [
            ("empty", [], .padding),
            ("one byte", [0], .padding),
            ("non-zero padding", nonZeroPadding, .padding),
            ("record longer than one block says", wrongLength, .padding),
            ("record ends in the link ID", Padding.pad(Array(Fixtures.linkID.bytes.prefix(15)), blockByteCount: 256), .accountLinkID),
            ("record ends in a string length", Padding.pad(Fixtures.linkID.bytes + [0], blockByteCount: 256), .displayName),
            ("record ends in the display name", Padding.pad(Fixtures.linkID.bytes + [0, 5, 65], blockByteCount: 256), .displayName),
            ("overlong UTF-8 in the email", { record = OfferRecord(); record.email = [0xC1, 0x81]; return record.plaintext }(), .emailAddress),
            ("CESU surrogate in the host", { record = OfferRecord(); record.host = [0xED, 0xB0, 0x80]; return record.plaintext }(), .imapHost),
            ("above U+10FFFF in the username", { record = OfferRecord(); record.username = [0xF4, 0x90, 0x80, 0x80]; return record.plaintext }(), .username),
            ("security byte 0", OfferRecord(security: 0).plaintext, .imapSecurity),
            ("security byte 3", OfferRecord(security: 3).plaintext, .imapSecurity),
            ("sender gate 0", OfferRecord(senderGate: 0).plaintext, .senderGate),
            ("sender gate 3", OfferRecord(senderGate: 3).plaintext, .senderGate),
            ("security byte 3 and sender gate 3", OfferRecord(security: 3, senderGate: 3).plaintext, .imapSecurity),
            ("sender gate 3 and a trailing byte", OfferRecord(senderGate: 3, trailing: [1]).plaintext, .senderGate),
            ("trailing byte", OfferRecord(trailing: [1]).plaintext, .trailingBytes),
            // Parsing before validation: a bad security byte or a trailing byte wins over port 0
            // and over a display name the rules refuse.
            ("port 0 and security 9", OfferRecord(port: 0, security: 9).plaintext, .imapSecurity),
            ("port 0 and a trailing byte", OfferRecord(port: 0, trailing: [0]).plaintext, .trailingBytes),
            ("bidi display name and a trailing byte",
             OfferRecord(displayName: Array("A\u{202E}".utf8), trailing: [0]).plaintext, .trailingBytes),
            ("invalid UTF-8 username and a bidi display name",
             OfferRecord(displayName: Array("A\u{202E}".utf8), username: [0xFF]).plaintext, .username),
            // Validation in field order, the port after the strings.
            ("bidi display name and port 0", OfferRecord(displayName: Array("A\u{202E}".utf8), port: 0).plaintext, .displayName),
            ("space in the email and a bad host", OfferRecord(email: Array("a b@c".utf8), host: Array("-h".utf8)).plaintext, .emailAddress),
            ("bad host and port 0", OfferRecord(host: Array("h.".utf8), port: 0).plaintext, .imapHost),
            ("port 0", OfferRecord(port: 0).plaintext, .imapPort),
        ]
        for (name, plaintext, field) in cases {
            #expect(throws: HandoffError.malformed(field), "\(name)") { try VectorPrimitives.decodeOfferPlaintext(plaintext) }
        }
    }

    @Test func theCredentialPlaintextIsFixedAt1024Bytes() throws {
        let padded = try VectorPrimitives.credentialPlaintext(Array("pw".utf8))
        #expect(padded.count == 1024)
        #expect(Array(padded.prefix(4)) == [0, 2, 0x70, 0x77])
        #expect(padded.dropFirst(4).allSatisfy { $0 == 0 })
        #expect(try VectorPrimitives.decodeCredentialPlaintext(padded) == Array("pw".utf8))
        let longest = try VectorPrimitives.credentialPlaintext([UInt8](repeating: 0x41, count: 1022))
        #expect(Array(longest.prefix(2)) == [0x03, 0xFE])
        #expect(throws: HandoffError.malformed(.credential)) { try VectorPrimitives.credentialPlaintext([]) }
        #expect(throws: HandoffError.malformed(.credential)) { try VectorPrimitives.credentialPlaintext([UInt8](repeating: 0, count: 1023)) }
        #expect(throws: HandoffError.malformed(.credential)) { try VectorPrimitives.decodeCredentialPlaintext(Array(padded.prefix(1023))) }
        #expect(throws: HandoffError.malformed(.credential)) { try VectorPrimitives.decodeCredentialPlaintext(padded + [0]) }
        var badPadding = padded
        badPadding[1023] = 1
        #expect(throws: HandoffError.malformed(.padding)) { try VectorPrimitives.decodeCredentialPlaintext(badPadding) }
    }

    @Test func theLinkIDIsAUUIDInRFC4122ByteOrder() throws {
        #expect(Fixtures.linkID.bytes == [0x6F, 0x1C, 0x2A, 0x9E, 0x3B, 0x4D, 0x4E, 0x5F, 0x8A, 0x7B, 0x1C, 0x2D, 0x3E, 0x4F, 0x5A, 0x6B])
        #expect(Fixtures.linkID.uuid == UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B"))
        #expect(AccountLinkID(bytes: Fixtures.linkID.bytes) == Fixtures.linkID)
        #expect(AccountLinkID(bytes: Array(Fixtures.linkID.bytes.prefix(15))) == nil)
        #expect(Fixtures.linkID.description == "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")
    }

    @Test func theDescriptionIsOneLineForPeople() {
        #expect(Fixtures.account.description == "Ada Lovelace <ada@example.org> ada@imap.example.org:993 (TLS)")
    }
}
