import AccountHandoff
@testable import AccountHandoffTransport
import Testing

@Suite struct RendezvousAndFramingTests {
    let tag: [UInt8] = [1, 2, 3, 4, 5, 6]

    @Test func loopbackTokenIsEightBytes() throws {
        let rendezvous = try #require(TCPRendezvous(address: .loopback, port: 0x9C41, tag: tag))
        #expect(rendezvous.token.bytes == [0x9C, 0x41, 1, 2, 3, 4, 5, 6])
        #expect(try TCPRendezvous(token: rendezvous.token) == rendezvous)
        #expect(rendezvous.description == "127.0.0.1:40001")
    }

    @Test func otherAddressTokenIsTwelveBytes() throws {
        let address = try #require(IPv4Address("127.0.0.2"))
        let rendezvous = try #require(TCPRendezvous(address: address, port: 8080, tag: tag))
        #expect(rendezvous.token.bytes == [127, 0, 0, 2, 0x1F, 0x90, 1, 2, 3, 4, 5, 6])
        #expect(try TCPRendezvous(token: rendezvous.token) == rendezvous)
    }

    @Test(arguments: [0, 7, 9, 11, 13, 32])
    func otherTokenLengthsAreUnsupported(length: Int) throws {
        let token = try RendezvousToken(bytes: [UInt8](repeating: 1, count: length))
        #expect(throws: TransportError.unsupportedRendezvous) { try TCPRendezvous(token: token) }
        #expect(TransportError.unsupportedRendezvous.handoffError == .malformed(.rendezvous))
    }

    @Test func portZeroIsRefused() throws {
        let token = try RendezvousToken(bytes: [0, 0] + tag)
        #expect(throws: TransportError.unsupportedRendezvous) { try TCPRendezvous(token: token) }
        #expect(TCPRendezvous(address: .loopback, port: 1, tag: [1]) == nil)
    }

    @Test func addressParsingIsStrict() {
        #expect(IPv4Address("192.168.1.20")?.bytes == [192, 168, 1, 20])
        #expect(IPv4Address("127.0.0.1") == .loopback)
        #expect(IPv4Address.loopback.isLoopback && IPv4Address("127.9.9.9")!.isLoopback)
        for bad in ["", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.-4", " 1.2.3.4", "1..3.4", "a.b.c.d", "１.2.3.4"] {
            #expect(IPv4Address(bad) == nil, "\(bad)")
        }
    }

    @Test func decoderReassemblesFramesSplitAcrossChunks() throws {
        let first = [UInt8](repeating: 0xA1, count: 300)
        let second = [UInt8](repeating: 0xB2, count: 5)
        let stream = try FrameStream.encode(first) + FrameStream.encode(second)
        var decoder = FrameStreamDecoder()
        var frames: [[UInt8]] = []
        for byte in stream {
            decoder.append([byte])
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(frames == [first, second])
        #expect(!decoder.hasPartialFrame)
    }

    @Test func decoderRefusesBadLengthsAtOnce() {
        var oversized = FrameStreamDecoder()
        oversized.append([0x10, 0x01])  // 4,097
        #expect(throws: TransportError.oversizedFrame(4097)) { try oversized.nextFrame() }
        var empty = FrameStreamDecoder()
        empty.append([0, 0, 1])
        #expect(throws: TransportError.emptyFrame) { try empty.nextFrame() }
        #expect(TransportError.oversizedFrame(4097).handoffError == .oversizedFrame(4097))
    }

    @Test func encoderRefusesFramesOutsideTheCap() throws {
        #expect(throws: TransportError.emptyFrame) { try FrameStream.encode([]) }
        #expect(throws: TransportError.oversizedFrame(4097)) { try FrameStream.encode([UInt8](repeating: 0, count: 4097)) }
        #expect(try FrameStream.encode([UInt8](repeating: 7, count: 4096)).prefix(2) == [0x10, 0x00])
    }

    @Test func dropsAndTimeoutsAreTransportLostForTheCore() {
        for error in [TransportError.closedByPeer, .timedOut, .connectionRefused, .emptyFrame, .closedLocally] {
            #expect(error.handoffError == .transportLost)
        }
    }
}
