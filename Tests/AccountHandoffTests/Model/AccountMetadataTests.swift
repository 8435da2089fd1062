import Foundation
import Testing
@testable import AccountHandoff

@Suite struct AccountMetadataTests {
    @Test func codecRoundTripsAndPadsToBlocks() throws {
        let encoded = AccountMetadataCodec.encode(Fixtures.account)
        #expect(encoded.count == 256)
        #expect(try AccountMetadataCodec.decode(encoded) == Fixtures.account)
        let long = try AccountMetadata(linkID: Fixtures.linkID, displayName: String(repeating: "é", count: 128),
                                       emailAddress: String(repeating: "a", count: 320), username: "u",
                                       imapHost: "h", imapPort: 143, imapSecurity: .startTLS)
        let longEncoded = AccountMetadataCodec.encode(long)
        #expect(longEncoded.count == 768)
        #expect(try AccountMetadataCodec.decode(longEncoded) == long)
    }

    @Test func validationNamesTheField() {
        func make(name: String = "n", email: String = "e@x", user: String = "u", host: String = "h", port: UInt16 = 993) throws {
            _ = try AccountMetadata(linkID: Fixtures.linkID, displayName: name, emailAddress: email, username: user,
                                    imapHost: host, imapPort: port, imapSecurity: .tls)
        }
        #expect(throws: HandoffError.malformed(.emailAddress)) { try make(email: "") }
        #expect(throws: HandoffError.malformed(.username)) { try make(user: String(repeating: "u", count: 321)) }
        #expect(throws: HandoffError.malformed(.imapHost)) { try make(host: "a\u{0}b") }
        #expect(throws: HandoffError.malformed(.displayName)) { try make(name: "line\nbreak") }
        #expect(throws: HandoffError.malformed(.imapPort)) { try make(port: 0) }
        #expect(throws: Never.self) { try make(name: "") }
    }

    @Test func decodingIsStrict() throws {
        let good = AccountMetadataCodec.encode(Fixtures.account)
        var nonZeroPadding = good
        nonZeroPadding[255] = 1
        #expect(throws: HandoffError.malformed(.padding)) { try AccountMetadataCodec.decode(nonZeroPadding) }
        #expect(throws: HandoffError.malformed(.padding)) { try AccountMetadataCodec.decode(good + Array(repeating: 0, count: 256)) }
        var badSecurity = good
        let recordLength = Int(good[0]) << 8 | Int(good[1])
        badSecurity[2 + recordLength - 1] = 0
        #expect(throws: HandoffError.malformed(.imapSecurity)) { try AccountMetadataCodec.decode(badSecurity) }
        var invalidUTF8 = good
        invalidUTF8[2 + 16 + 2] = 0xff  // first byte of the display name
        #expect(throws: HandoffError.malformed(.displayName)) { try AccountMetadataCodec.decode(invalidUTF8) }
        var shortRecord = good
        shortRecord[1] = UInt8(recordLength + 1)  // one padding zero inside the record
        #expect(throws: HandoffError.malformed(.trailingBytes)) { try AccountMetadataCodec.decode(shortRecord) }
    }

    @Test func overlongUTF8IsRefused() {
        #expect(String(validatingUTF8Bytes: [0xc0, 0xaf]) == nil)
        #expect(String(validatingUTF8Bytes: [0xed, 0xa0, 0x80]) == nil)  // a surrogate
        #expect(String(validatingUTF8Bytes: Array("Ada é".utf8)) == "Ada é")
    }

    @Test func credentialPlaintextIsFixedSizeAndStrict() throws {
        let padded = try CredentialPlaintext.pad(SecretBytes(utf8: "pw"))
        #expect(padded.count == 1024)
        #expect(padded.withUnsafeBytes { Array($0.prefix(4)) } == [0, 2, 0x70, 0x77])
        #expect(try CredentialPlaintext.unpad(padded).withUnsafeBytes { Array($0) } == Array("pw".utf8))
        padded.withUnsafeMutableBytes { $0[1000] = 1 }
        #expect(throws: HandoffError.malformed(.padding)) { try CredentialPlaintext.unpad(padded) }
        #expect(throws: HandoffError.malformed(.credential)) { try CredentialPlaintext.pad(SecretBytes(copying: [UInt8]())) }
        let zeroLength = SecretBytes(zeroedCount: 1024)
        #expect(throws: HandoffError.malformed(.credential)) { try CredentialPlaintext.unpad(zeroLength) }
    }

    @Test func linkIDConvertsToAndFromUUID() {
        let uuid = UUID()
        #expect(AccountLinkID(uuid: uuid).uuid == uuid)
        #expect(AccountLinkID(bytes: [1, 2]) == nil)
    }
}
