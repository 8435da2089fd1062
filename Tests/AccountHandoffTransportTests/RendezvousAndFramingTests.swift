import AccountHandoff
@testable import AccountHandoffTransport
import Testing

/// The rendezvous token (Spec 11.1), relay host packing (11.2) and framing (11.5).
@Suite struct RendezvousAndFramingTests {
    static func token(_ bytes: [UInt8]) throws -> RendezvousToken { try RendezvousToken(bytes: bytes) }

    /// A relay at `host:port` (port not 0).
    static func relay(_ host: String, port: UInt16) throws -> TCPRendezvous.Relay {
        try #require(TCPRendezvous.Relay(host: RelayHost(host), port: port))
    }

    static func decodingError(_ bytes: [UInt8]) throws -> RendezvousTokenError? {
        do {
            _ = try TCPRendezvous(token: token(bytes))
            return nil
        } catch let error as RendezvousTokenError {
            return error
        }
    }

    @Test func loopbackTokenIsFlagsAndPort() throws {
        let rendezvous = try #require(TCPRendezvous(address: .loopback, port: 0x9C41))
        #expect(rendezvous.token.bytes == [0x01, 0x9C, 0x41])
        #expect(try TCPRendezvous(token: rendezvous.token) == rendezvous)
        #expect(rendezvous.description == "127.0.0.1:40001")
    }

    @Test func otherAddressTokenCarriesIt() throws {
        let address = try #require(IPv4Address("192.168.1.20"))
        let rendezvous = try #require(TCPRendezvous(address: address, port: 8080))
        #expect(rendezvous.token.bytes == [0x03, 192, 168, 1, 20, 0x1F, 0x90])
        #expect(try TCPRendezvous(token: rendezvous.token) == rendezvous)
    }

    @Test func anExplicitLoopbackAddressDecodesToo() throws {
        let decoded = try TCPRendezvous(token: Self.token([0x03, 127, 0, 0, 1, 0x1F, 0x90]))
        #expect(decoded.direct == TCPRendezvous.Endpoint(address: .loopback, port: 8080))
        #expect(decoded.token.bytes == [0x01, 0x1F, 0x90])  // the encoder leaves it out
    }

    @Test func relayOnlyAndBoth() throws {
        let relay = try RendezvousAndFramingTests.relay("relay.example.org", port: 4001)
        let relayOnly = try TCPRendezvous(direct: nil, relay: relay)
        #expect(relayOnly.token.bytes.prefix(3) == [0x04, 0x0F, 0xA1])
        #expect(try TCPRendezvous(token: relayOnly.token) == relayOnly)
        #expect(relayOnly.description == "relay relay.example.org:4001")
        let both = try TCPRendezvous(direct: TCPRendezvous.Endpoint(address: IPv4Address("10.0.0.7")!, port: 5000), relay: relay)
        #expect(both.token.bytes.prefix(7) == [0x07, 10, 0, 0, 7, 0x13, 0x88])
        #expect(try TCPRendezvous(token: both.token) == both)
        #expect(both.description == "10.0.0.7:5000 (relay relay.example.org:4001)")
    }

    @Test func hostsUpToTheTokenLimit() throws {
        let longest = String(repeating: "a", count: 42)
        let relayOnly = try TCPRendezvous(direct: nil, relay: RendezvousAndFramingTests.relay(longest, port: 1))
        #expect(relayOnly.token.bytes.count == 31)
        let withIPv4 = TCPRendezvous.Endpoint(address: IPv4Address("10.0.0.7")!, port: 5000)
        let fits = try TCPRendezvous(direct: withIPv4, relay: RendezvousAndFramingTests.relay(String(repeating: "b", count: 33), port: 1))
        #expect(fits.token.bytes.count == 31)  // 23 bytes left: 11 groups
        #expect(throws: RendezvousTokenError.tooLong(33)) {
            try TCPRendezvous(direct: withIPv4, relay: RendezvousAndFramingTests.relay(String(repeating: "b", count: 34), port: 1))
        }
        let loopback = TCPRendezvous.Endpoint(address: .loopback, port: 5000)
        #expect(try TCPRendezvous(direct: loopback, relay: RendezvousAndFramingTests.relay(String(repeating: "c", count: 39), port: 1)).token.bytes.count == 31)
        #expect(throws: RendezvousTokenError.tooLong(33)) {
            try TCPRendezvous(direct: loopback, relay: RendezvousAndFramingTests.relay(String(repeating: "c", count: 40), port: 1))
        }
    }

    @Test func everyRuleOfTheDecoder() throws {
        let host = RelayHost.self
        let packedAB = try host.init("ab").packed
        let packedABC = try host.init("abc").packed
        let cases: [([UInt8], RendezvousTokenError)] = [
            ([], .empty),
            ([0x08, 0x1F, 0x90], .unknownFlags(0x08)),
            ([0x81, 0x1F, 0x90], .unknownFlags(0x81)),
            ([0x02, 127, 0, 0, 1], .addressWithoutDirect),
            ([0x06, 127, 0, 0, 1, 0, 1] + packedAB, .addressWithoutDirect),
            ([0x00], .noRoute),
            ([0x01], .truncated),
            ([0x01, 0x1F], .truncated),
            ([0x03, 10, 0, 0], .truncated),
            ([0x03, 10, 0, 0, 7, 0x13], .truncated),
            ([0x04, 0x0F], .truncated),
            ([0x05, 0x13, 0x88, 0x0F], .truncated),
            ([0x01, 0, 0], .zeroPort),
            ([0x04, 0, 0] + packedAB, .zeroPort),
            ([0x01, 0x1F, 0x90, 0], .trailingBytes),
            ([0x03, 10, 0, 0, 7, 0x13, 0x88, 1, 2], .trailingBytes),
            ([0x04, 0x0F, 0xA1], .invalidRelayHost),
            ([0x04, 0x0F, 0xA1, 0x05], .oddRelayHostLength),
            ([0x04, 0x0F, 0xA1, 0xE7, 0xB7], .relayHostGroupOutOfRange),  // 59,319
            ([0x04, 0x0F, 0xA1, 0xFF, 0xFF], .relayHostGroupOutOfRange),
            ([0x04, 0x0F, 0xA1, 0x00, 0x00], .relayHostPadGroup),
            ([0x04, 0x0F, 0xA1] + packedABC + [0x00, 0x00], .relayHostPadGroup),
            ([0x04, 0x0F, 0xA1, 0x00, 0x01], .misplacedRelayHostPad),  // (pad, pad, a)
            ([0x04, 0x0F, 0xA1, 0x05, 0xF4], .misplacedRelayHostPad),  // (a, pad, c)
            ([0x04, 0x0F, 0xA1, 0x06, 0x3F, 0x12, 0x4B], .misplacedRelayHostPad),  // (a, b, pad) is not the last group
        ]
        for (bytes, expected) in cases {
            #expect(try Self.decodingError(bytes) == expected, "\(bytes)")
        }
        // Symbols that decode but break the host rules.
        for name in ["-ab", "ab-", "a..b", ".ab", "ab."] {
            var symbols = Array(name.utf8).map { RelayHost.alphabet.firstIndex(of: $0)! }
            while symbols.count % 3 != 0 { symbols.append(0) }
            var packed: [UInt8] = []
            for start in stride(from: 0, to: symbols.count, by: 3) {
                let value = symbols[start] * 1521 + symbols[start + 1] * 39 + symbols[start + 2]
                packed += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            #expect(try Self.decodingError([0x04, 0x0F, 0xA1] + packed) == .invalidRelayHost, "\(name)")
        }
        #expect(RendezvousTokenError.misplacedRelayHostPad.rule == "relayHost.misplacedPad")
        #expect(TransportError.unsupportedRendezvous(.empty).handoffError == .malformed(.rendezvous))
    }

    @Test func relayHostPackingIsThreeSymbolsToTwoBytes() throws {
        #expect(try RelayHost("a").packed == [0x05, 0xF1])  // 1 * 1521
        #expect(try RelayHost("abc").packed == [0x06, 0x42])  // 1521 + 2 * 39 + 3 = 1602
        #expect(try RelayHost("z.9").packed == [0xA0, 0x68])  // 26 * 1521 + 38 * 39 + 36 = 41064
        #expect(try RelayHost("192.168.1.10").packed.count == 8)
        for name in ["a", "ab", "abc", "abcd", "relay.example.org", "x-1.y-2.z", "10.0.0.1", String(repeating: "9", count: 42)] {
            let host = try RelayHost(name)
            #expect(try RelayHost(packed: host.packed) == host)
            #expect(host.packed.count == (name.count + 2) / 3 * 2)
        }
        for bad in ["", "A", "Relay.example.org", "a_b", "a b", "é", "a.", ".a", "-a", "a-", "a..b", String(repeating: "a", count: 43),
                    String(repeating: "a", count: 64) + ".b"] {
            #expect(throws: RendezvousTokenError.invalidRelayHost, "\(bad)") { try RelayHost(bad) }
        }
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

    @Test func errorsMapToTheCore() {
        for error in [TransportError.closedByPeer, .timedOut, .emptyFrame, .closedLocally, .notJoinedInTime, .evicted] {
            #expect(error.handoffError == .transportLost)
        }
        for error in [TransportError.connectionRefused, .networkUnreachable, .relayClosed, .relayNotPaired, .relayHostNotFound(try! RelayHost("relay.example.org")), .notAHandoffSender,
                      .directAddressRefused(IPv4Address("8.8.8.8")!, .publicAddress)] {
            #expect(error.handoffError == .senderUnreachable)
        }
        #expect(TransportError.codeRenewed.handoffError == .expired)
        #expect(TransportError.codeRenewed.errorDescription
            == "The sending device at this code's address does not serve this code: either it shows a new code now (scan or copy that one), or this copy of the code was changed on its way (copy it again, whole).")
    }
}
