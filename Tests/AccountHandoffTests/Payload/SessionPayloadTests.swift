import Foundation
import Testing
@testable import AccountHandoff

@Suite struct SessionPayloadTests {
    static let payload = SessionPayload(
        intent: .sendAccount, transferID: TransferID(bytes: Array(0..<16))!, expiry: 1_800_000_180,
        challenge: Array(100..<116), senderPublicKey: X25519PublicKey(bytes: Array(repeating: 9, count: 32))!,
        rendezvous: try! RendezvousToken(bytes: [1, 2, 3, 4, 5, 6, 7, 8]))

    @Test func binaryLayoutIsExact() {
        let binary = Self.payload.binary
        #expect(binary.count == 79)
        #expect(Array(binary[0..<2]) == [1, 1])
        #expect(Array(binary[2..<18]) == Array(0..<16))
        #expect(Array(binary[18..<22]) == [0x6b, 0x49, 0xd2, 0xb4])  // 1_800_000_180 big-endian
        #expect(Array(binary[22..<38]) == Array(100..<116))
        #expect(Array(binary[38..<70]) == Array(repeating: 9, count: 32))
        #expect(binary[70] == 8)
        #expect(Array(binary[71...]) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func textIsPrefixAndDigitsAndRoundTrips() throws {
        let text = Self.payload.text
        #expect(text.hasPrefix("AH:"))
        // 79 bytes = 11 groups of 7 (187 digits) + 2 bytes (5 digits).
        #expect(text.count == 3 + 192)
        #expect(text.dropFirst(3).allSatisfy { $0.isNumber })
        #expect(try SessionPayload(text: text) == Self.payload)
        #expect(try SessionPayload(binary: Self.payload.binary) == Self.payload)
    }

    @Test(arguments: [0, 1, 7, 8, 13, 32])
    func everyRendezvousLengthRoundTrips(length: Int) throws {
        let payload = SessionPayload(intent: .sendAccount, transferID: Self.payload.transferID, expiry: 42,
                                     challenge: Self.payload.challenge, senderPublicKey: Self.payload.senderPublicKey,
                                     rendezvous: try RendezvousToken(bytes: Array(repeating: 0xff, count: length)))
        #expect(try SessionPayload(text: payload.text) == payload)
        #expect(payload.text.utf8.count <= SessionPayload.maximumTextLength)
    }

    @Test func theTypeHasOnlySessionFieldsSoNoCredentialCanBeCarried() {
        // The QR type's stored properties are exactly the session fields: no place for account
        // data, a credential or ciphertext. A new field must be added here deliberately.
        // The mirror hides the challenge (the QR secret) from dumps; the layout pins the rest:
        // version and intent (1 byte each, padded to 8), the transfer ID (8), expiry (4, padded
        // to 8), and three more array references (8 each): 48 bytes. A new field changes it.
        let labels = Mirror(reflecting: Self.payload).children.compactMap(\.label)
        #expect(labels == ["version", "intent", "transferID", "expiry", "senderPublicKey", "rendezvous"])
        #expect(MemoryLayout<SessionPayload>.size == 48)
        #expect(RendezvousToken.maximumByteCount == 32)
        #expect(SessionPayload.maximumByteCount == 103)
    }

    @Test func descriptionLeavesTheChallengeOut() {
        let text = String(describing: Self.payload)
        #expect(!text.contains(Hex.encode(Self.payload.challenge)))
        #expect(text.contains(Self.payload.transferID.description))
    }

    @Test func textDecodingErrorsAreSpecific() {
        let valid = Self.payload.text
        let digits = String(valid.dropFirst(3))
        let cases: [(String, HandoffError)] = [
            ("", .badMagic),
            ("ah:" + digits, .badMagic),
            ("AH:" + digits.dropLast(1), .malformed(.digits)),     // 191 digits: no byte count gives that
            ("AH:" + digits + "0", .malformed(.digits)),
            ("AH:" + digits.dropLast(5), .malformed(.rendezvous)),  // a whole byte group missing
            ("AH:" + digits + "000", .malformed(.trailingBytes)),   // one extra byte
            ("AH:" + "x" + digits.dropFirst(), .malformed(.digits)),
            ("AH:" + digits + String(repeating: "0", count: 300), .malformed(.length)),
            ("AH:99999999999999999" + digits.dropFirst(17), .nonCanonicalEncoding),
            ("AH:", .malformed(.version)),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.prefix(24))") { try SessionPayload(text: text) }
        }
    }

    @Test func binaryDecodingErrorsAreSpecific() {
        var binary = Self.payload.binary
        binary[0] = 2
        #expect(throws: HandoffError.unsupportedVersion(2)) { try SessionPayload(binary: binary) }
        binary = Self.payload.binary
        binary[1] = 7
        #expect(throws: HandoffError.wrongIntent(7)) { try SessionPayload(binary: binary) }
        binary = Self.payload.binary
        binary[70] = 33
        #expect(throws: HandoffError.rendezvousTooLong(33)) { try SessionPayload(binary: binary) }
        #expect(throws: HandoffError.malformed(.transferID)) { try SessionPayload(binary: Array(Self.payload.binary.prefix(10))) }
        #expect(throws: HandoffError.malformed(.expiry)) { try SessionPayload(binary: Array(Self.payload.binary.prefix(20))) }
        #expect(throws: HandoffError.malformed(.challenge)) { try SessionPayload(binary: Array(Self.payload.binary.prefix(30))) }
        #expect(throws: HandoffError.malformed(.publicKey)) { try SessionPayload(binary: Array(Self.payload.binary.prefix(50))) }
        #expect(throws: HandoffError.malformed(.trailingBytes)) { try SessionPayload(binary: Self.payload.binary + [0]) }
    }

    @Test func rendezvousTokenIsCapped() {
        #expect(throws: HandoffError.rendezvousTooLong(33)) { try RendezvousToken(bytes: Array(repeating: 0, count: 33)) }
    }

    @Test func scanChecksTheIntentTheUserAskedFor() throws {
        // Only one intent exists in version 1; an unknown one fails decoding with its number.
        var binary = Self.payload.binary
        binary[1] = 2
        #expect(throws: HandoffError.wrongIntent(2)) { try SessionPayload(binary: binary) }
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
        #expect(DecimalChunks.encode(Array(repeating: 0xff, count: 7)) == "72057594037927935")
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("256") }
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("72057594037927936") }
        #expect(throws: HandoffError.nonCanonicalEncoding) { try DecimalChunks.decode("65536") }
    }

    @Test func lengthsNoByteCountProducesAreRefused() {
        for digits in [1, 2, 4, 6, 7, 9, 11, 12, 14, 16] {
            #expect(throws: HandoffError.malformed(.digits)) { try DecimalChunks.decode(Substring(String(repeating: "1", count: digits))) }
        }
    }
}
