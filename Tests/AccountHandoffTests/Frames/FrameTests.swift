import Testing
@testable import AccountHandoff

@Suite struct FrameTests {
    static let transferID = TransferID(bytes: Array(repeating: 0xab, count: 16))!

    static func body(for type: MessageType) -> [UInt8] {
        Array(repeating: 0x5a, count: type.fixedBodyLength ?? (256 + 16))
    }

    @Test(arguments: MessageType.allCases)
    func everyTypeRoundTripsWithAnExactHeader(type: MessageType) throws {
        let frame = Frame(type: type, transferID: Self.transferID, sequence: 0x01020304, body: Self.body(for: type))
        let bytes = frame.bytes
        #expect(bytes[0] == 1)
        #expect(bytes[1] == type.rawValue)
        #expect(Array(bytes[2..<18]) == Self.transferID.bytes)
        #expect(Array(bytes[18..<22]) == [1, 2, 3, 4])
        #expect(Int(bytes[22]) << 8 | Int(bytes[23]) == frame.body.count)
        #expect(try Frame(bytes: bytes) == frame)
    }

    @Test func bodyLengthRules() {
        #expect(MessageType.hello.fixedBodyLength == 64)
        #expect(MessageType.accept.fixedBodyLength == 16)
        #expect(MessageType.credential.fixedBodyLength == 1040)
        #expect(MessageType.receipt.fixedBodyLength == 17)
        #expect(MessageType.abort.fixedBodyLength == 17)
        #expect(Frame.isValidBodyLength(256 + 16, for: .offer))
        #expect(Frame.isValidBodyLength(1280 + 16, for: .offer))
        #expect(!Frame.isValidBodyLength(255 + 16, for: .offer))
        #expect(!Frame.isValidBodyLength(16, for: .offer))
    }

    @Test func decodingErrorsAreSpecific() {
        let good = Frame(type: .receipt, transferID: Self.transferID, sequence: 2, body: Self.body(for: .receipt)).bytes
        var wrongVersion = good
        wrongVersion[0] = 9
        var unknownType = good
        unknownType[1] = 0x7f
        var longerBody = good
        longerBody[23] = 18
        var shorterBody = good
        shorterBody[23] = 16
        let cases: [([UInt8], HandoffError)] = [
            ([], .malformed(.frameHeader)),
            (Array(good.prefix(23)), .malformed(.frameHeader)),
            (wrongVersion, .unsupportedVersion(9)),
            (unknownType, .unknownMessageType(0x7f)),
            (Array(good.dropLast()), .malformed(.frameLength)),
            (good + [0], .malformed(.trailingBytes)),
            (longerBody, .malformed(.frameLength)),
            (shorterBody, .malformed(.trailingBytes)),
            (Array(repeating: 1, count: 4097), .oversizedFrame(4097)),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected) { try Frame(bytes: bytes) }
        }
        let wrongLength = Frame(type: .receipt, transferID: Self.transferID, sequence: 2, body: [1, 2]).bytes
        #expect(throws: HandoffError.malformed(.body)) { try Frame(bytes: wrongLength) }
    }

    @Test func nonceIsEightZerosAndTheSequence() {
        #expect(SecureChannel.nonce(sequence: 0x0a0b0c0d) == [0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x0b, 0x0c, 0x0d])
    }
}
