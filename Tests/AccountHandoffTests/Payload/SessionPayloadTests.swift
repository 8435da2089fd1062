import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 2: the QR payload's binary and text forms, strict decoding in the order of 2.4.
@Suite struct SessionPayloadTests {
    static let commitment = Array(UInt8(100)..<132)
    static let payload = SessionPayload(
        intent: .sendAccount, expiry: 1_800_000_180, commitment: commitment,
        senderPublicKey: X25519PublicKey(bytes: Array(repeating: 9, count: 32))!,
        rendezvous: try! RendezvousToken(bytes: [1, 2, 3, 4, 5, 6, 7, 8]))

    @Test func binaryLayoutIsExact() {
        let binary = Self.payload.binary
        #expect(binary.count == 79)
        #expect(Array(binary[0..<2]) == [4, 1])  // version 4, intent sendAccount
        #expect(Array(binary[2..<6]) == [0x6b, 0x49, 0xd2, 0xb4])  // 1_800_000_180 big-endian
        #expect(Array(binary[6..<38]) == Self.commitment)
        #expect(Array(binary[38..<70]) == Array(repeating: 9, count: 32))
        #expect(binary[70] == 8)
        #expect(Array(binary[71...]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(SessionPayload.fixedByteCount == 71)
        #expect(SessionPayload.maximumByteCount == 103)
        #expect(SessionPayload.maximumTextLength == 254)
    }

    @Test func theTransferIDHashesTheExactQRBytes() {
        let expected = Array(VectorPrimitives.sha256([Array("AH4 transfer ID".utf8), Self.payload.binary]).prefix(16))
        #expect(Self.payload.transferID.bytes == expected)
        let later = SessionPayload(intent: .sendAccount, expiry: 1_800_000_181, commitment: Self.commitment,
                                   senderPublicKey: Self.payload.senderPublicKey, rendezvous: Self.payload.rendezvous)
        #expect(later.transferID != Self.payload.transferID)
    }

    @Test func textIsPrefixAndDigitsAndRoundTrips() throws {
        let text = Self.payload.text
        #expect(text.hasPrefix("AH:"))
        // 79 bytes = 11 groups of 7 (187 digits) + 2 bytes (5 digits).
        #expect(text.utf8.count == 3 + 192)
        #expect(text.dropFirst(3).allSatisfy { $0.isASCII && $0.isNumber })
        #expect(try SessionPayload(text: text) == Self.payload)
        #expect(try SessionPayload(binary: Self.payload.binary) == Self.payload)
    }

    /// 71 bytes (no rendezvous) give 176 characters, 103 bytes give 254 (Spec 2.3).
    @Test(arguments: [(0, 176), (1, 178), (7, 193), (8, 195), (13, 207), (32, 254)])
    func everyRendezvousLengthRoundTrips(length: Int, textLength: Int) throws {
        let payload = SessionPayload(intent: .sendAccount, expiry: 42, commitment: Self.commitment,
                                     senderPublicKey: Self.payload.senderPublicKey,
                                     rendezvous: try RendezvousToken(bytes: Array(repeating: 0xff, count: length)))
        #expect(payload.text.utf8.count == textLength)
        #expect(try SessionPayload(text: payload.text) == payload)
    }

    @Test func textDecodingErrorsAreSpecificAndInTheSpecsOrder() {
        let valid = Self.payload.text
        let digits = String(valid.dropFirst(3))
        let cases: [(String, HandoffError)] = [
            ("", .badMagic),
            ("ah:" + digits, .badMagic),
            ("AH" + digits, .badMagic),
            ("AH:" + digits.dropLast(1), .malformed(.digits)),  // 191 digits: no byte count gives that
            ("AH:" + digits + "0", .malformed(.digits)),
            ("AH:" + digits.dropLast(5), .malformed(.rendezvous)),  // the last two bytes missing
            ("AH:" + digits + "000", .malformed(.trailingBytes)),  // one byte more
            ("AH:" + "x" + digits.dropFirst(), .malformed(.digits)),
            ("AH:" + digits.dropLast(1) + "\u{0661}", .malformed(.digits)),  // ARABIC-INDIC DIGIT ONE
            ("AH:" + digits + String(repeating: "0", count: 300), .malformed(.length)),  // length first (step 1)
            ("xx:" + String(repeating: "0", count: 300), .malformed(.length)),
            ("AH:99999999999999999" + digits.dropFirst(17), .nonCanonicalEncoding),
            // A non-canonical last group wins over a field error (step 5 before step 6).
            ("AH:" + String(repeating: "0", count: 17) + "999", .nonCanonicalEncoding),
            ("AH:", .malformed(.version)),
            ("AH:000", .unsupportedVersion(0)),
            ("AH:001", .unsupportedVersion(1)),  // a version-1 QR
            ("AH:002", .unsupportedVersion(2)),  // a version-2 QR
            ("AH:003", .unsupportedVersion(3)),  // a version-3 QR
            ("AH:004", .malformed(.intent)),  // one byte: version 4
            ("AH:01025", .malformed(.expiry)),  // 0x0401: version 4, intent 1
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.prefix(30))") { try SessionPayload(text: text) }
        }
    }

    @Test func binaryDecodingErrorsAreSpecific() {
        let binary = Self.payload.binary
        var version = binary
        version[0] = 1
        #expect(throws: HandoffError.unsupportedVersion(1)) { try SessionPayload(binary: version) }
        var intent = binary
        intent[1] = 7
        #expect(throws: HandoffError.wrongIntent(7)) { try SessionPayload(binary: intent) }
        var rendezvous = binary
        rendezvous[70] = 33
        #expect(throws: HandoffError.rendezvousTooLong(33)) { try SessionPayload(binary: rendezvous) }
        let truncations: [(Int, HandoffError.Field)] = [
            (0, .version), (1, .intent), (2, .expiry), (5, .expiry), (6, .commitment), (37, .commitment),
            (38, .publicKey), (69, .publicKey), (70, .rendezvous), (71, .rendezvous), (78, .rendezvous),
        ]
        for (length, field) in truncations {
            #expect(throws: HandoffError.malformed(field), "\(length) bytes") { try SessionPayload(binary: Array(binary.prefix(length))) }
        }
        #expect(throws: HandoffError.malformed(.trailingBytes)) { try SessionPayload(binary: binary + [0]) }
        #expect(throws: HandoffError.malformed(.length)) { try SessionPayload(binary: [UInt8](repeating: 2, count: 104)) }
    }

    @Test func rendezvousTokenIsCappedWhenTheAppBuildsIt() throws {
        #expect(throws: HandoffError.rendezvousTooLong(33)) { try RendezvousToken(bytes: Array(repeating: 0, count: 33)) }
        #expect(try RendezvousToken(bytes: Array(repeating: 0, count: 32)).bytes.count == 32)
        #expect(try RendezvousToken(bytes: []).bytes.isEmpty)
    }

    /// The QR type holds exactly the session fields: no place for account data or a credential.
    @Test func thePayloadHasOnlySessionFields() {
        #expect(Mirror(reflecting: Self.payload).children.compactMap(\.label)
                == ["version", "intent", "transferID", "expiry", "senderPublicKey", "rendezvous"])
        #expect(Self.payload.version == 4)
        #expect(Self.payload.expiryDate == Date(timeIntervalSince1970: 1_800_000_180))
    }
}

@Suite struct DecimalChunksTests {
    @Test(arguments: 0...15)
    func roundTripsEveryLength(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
        let text = DecimalChunks.encode(bytes)
        #expect(text.count == 17 * (length / 7) + DecimalChunks.digitsPerByteCount[length % 7])
        #expect(try DecimalChunks.decode(Substring(text)) == bytes)
    }

    @Test func maximumValuesAreCanonicalAndOneMoreIsNot() throws {
        #expect(DecimalChunks.encode([0xff]) == "255")
        #expect(DecimalChunks.encode([0, 0, 7]) == "00000007")
        #expect(DecimalChunks.encode(Array(repeating: 0xff, count: 7)) == "72057594037927935")
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("256") }
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("72057594037927936") }
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("65536") }
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("99999999999999999") }
    }

    @Test func lengthsNoByteCountProducesAreRefused() {
        for digits in [1, 2, 4, 6, 7, 9, 11, 12, 14, 16, 18] {
            #expect(throws: HandoffError.malformed(.digits)) { try DecimalChunks.decode(Substring(String(repeating: "1", count: digits))) }
        }
    }
}
