import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 3.1-3.3: the frame layout, the body length rules and strict decoding (F1-F7).
@Suite struct FrameTests {
    static let transferID = TransferID(bytes: Array(repeating: 0xab, count: 16))!

    static func body(for type: MessageType) -> [UInt8] {
        Array(repeating: 0x5a, count: type.fixedBodyLength ?? (256 + 16))
    }

    @Test(arguments: MessageType.allCases)
    func everyTypeRoundTripsWithAnExactHeader(type: MessageType) throws {
        let frame = Frame(type: type, transferID: Self.transferID, sequence: 0x01020304, body: Self.body(for: type))
        let bytes = frame.bytes
        #expect(bytes[0] == SessionPayload.currentVersion)
        #expect(bytes[1] == type.rawValue)
        #expect(Array(bytes[2..<18]) == Self.transferID.bytes)
        #expect(Array(bytes[18..<22]) == [1, 2, 3, 4])
        #expect(Int(bytes[22]) << 8 | Int(bytes[23]) == frame.body.count)
        #expect(bytes.count == Frame.headerByteCount + frame.body.count)
        #expect(try Frame(bytes: bytes) == frame)
    }

    @Test func bodyLengthRules() {
        #expect(MessageType.hello.fixedBodyLength == 64)
        #expect(MessageType.reveal.fixedBodyLength == 48)
        #expect(MessageType.accept.fixedBodyLength == 17)
        #expect(MessageType.credential.fixedBodyLength == 1040)
        #expect(MessageType.receipt.fixedBodyLength == 17)
        #expect(MessageType.abort.fixedBodyLength == 17)
        #expect(MessageType.offer.fixedBodyLength == nil)
        for plaintext in stride(from: 256, through: 3840, by: 256) {
            #expect(Frame.isValidBodyLength(plaintext + 16, for: .offer))
        }
        #expect(!Frame.isValidBodyLength(255 + 16, for: .offer))
        #expect(!Frame.isValidBodyLength(257 + 16, for: .offer))
        #expect(!Frame.isValidBodyLength(16, for: .offer))
        #expect(!Frame.isValidBodyLength(0, for: .offer))
        #expect(Frame.maximumByteCount == 4096)
        #expect(MessageType.allCases.map(\.rawValue) == Array(1...11))
    }

    @Test func decodingErrorsAreSpecificAndInTheSpecsOrder() {
        let good = Frame(type: .receipt, transferID: Self.transferID, sequence: 2, body: Self.body(for: .receipt)).bytes
        var versionOne = good
        versionOne[0] = 1
        var unknownType = good
        unknownType[1] = 0x7f
        var typeZero = good
        typeZero[1] = 0
        var typeTwelve = good
        typeTwelve[1] = 12
        var longerBody = good
        longerBody[23] = 18
        var shorterBody = good
        shorterBody[23] = 16
        var oversizedVersionOne = [UInt8](repeating: 1, count: 4097)
        oversizedVersionOne[0] = 1
        let cases: [([UInt8], HandoffError)] = [
            ([], .malformed(.frameHeader)),
            (Array(good.prefix(23)), .malformed(.frameHeader)),
            (versionOne, .unsupportedVersion(1)),
            (unknownType, .unknownMessageType(0x7f)),
            (typeZero, .unknownMessageType(0)),
            (typeTwelve, .unknownMessageType(12)),
            (Array(good.dropLast()), .malformed(.frameLength)),
            (good + [0], .malformed(.trailingBytes)),
            (longerBody, .malformed(.frameLength)),
            (shorterBody, .malformed(.trailingBytes)),
            (oversizedVersionOne, .oversizedFrame(4097)),  // F1 before anything else
            (Array(versionOne.prefix(10)), .malformed(.frameHeader)),  // F2 before the version
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected) { try Frame(bytes: bytes) }
        }
        let wrongLength = Frame(type: .receipt, transferID: Self.transferID, sequence: 2, body: [1, 2]).bytes
        #expect(throws: HandoffError.malformed(.body)) { try Frame(bytes: wrongLength) }
    }

    @Test func theLargestFrameIsAcceptedAndOneByteMoreIsNot() throws {
        let largest = Frame(type: .offer, transferID: Self.transferID, sequence: 1, body: [UInt8](repeating: 0, count: 3840 + 16))
        #expect(largest.bytes.count == 3880)
        #expect(try Frame(bytes: largest.bytes) == largest)
        let padded = Frame(type: .offer, transferID: Self.transferID, sequence: 1, body: [UInt8](repeating: 0, count: 4072)).bytes
        #expect(padded.count == 4096)
        #expect(throws: HandoffError.malformed(.body)) { try Frame(bytes: padded) }
        #expect(throws: HandoffError.oversizedFrame(4097)) { try Frame(bytes: padded + [0]) }
    }

    @Test func theNonceIsEightZerosAndTheSequence() {
        #expect(SecureChannel.nonce(sequence: 0x0a0b0c0d) == [0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x0b, 0x0c, 0x0d])
        #expect(VectorPrimitives.nonce(sequence: 0) == [UInt8](repeating: 0, count: 12))
    }
}
