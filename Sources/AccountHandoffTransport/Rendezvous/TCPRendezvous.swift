import AccountHandoff

/// Where a receiver finds the sender: a direct TCP address, a relay, or both (Spec 11.1). It
/// travels in the QR as the session's rendezvous token:
///
/// ```
/// token  = flags(u8) | direct? | relay?
/// direct = address? | port(u16)        flags 0x01; address (IPv4, 4 bytes) with flags 0x02,
///                                      otherwise 127.0.0.1
/// relay  = relayPort(u16) | relayHost  flags 0x04; the packed host takes the rest (11.2)
/// ```
///
/// Nothing in it is secret; admission (Spec 11.4) rests on keys derived from the whole QR.
public struct TCPRendezvous: Hashable, Sendable, CustomStringConvertible {
    /// A TCP address and port.
    public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
        /// The IPv4 address.
        public let address: IPv4Address
        /// The TCP port, never 0.
        public let port: UInt16

        /// An endpoint; `nil` for port 0.
        public init?(address: IPv4Address, port: UInt16) {
            guard port != 0 else { return nil }
            self.address = address
            self.port = port
        }

        /// `address:port`.
        public var description: String { "\(address):\(port)" }
    }

    /// A relay's host and port.
    public struct Relay: Hashable, Sendable, CustomStringConvertible {
        /// The relay's host.
        public let host: RelayHost
        /// The relay's TCP port, never 0.
        public let port: UInt16

        /// A relay; `nil` for port 0.
        public init?(host: RelayHost, port: UInt16) {
            guard port != 0 else { return nil }
            self.host = host
            self.port = port
        }

        /// `host:port`.
        public var description: String { "\(host):\(port)" }
    }

    /// Flag: a direct address is present.
    static let directFlag: UInt8 = 0x01
    /// Flag: the direct address names its IPv4 address (otherwise 127.0.0.1).
    static let addressFlag: UInt8 = 0x02
    /// Flag: a relay is present.
    static let relayFlag: UInt8 = 0x04

    /// The sender's own address, if the receiver may connect directly.
    public let direct: Endpoint?
    /// The relay both devices meet at, if any.
    public let relay: Relay?

    /// A rendezvous with a direct address, a relay, or both.
    ///
    /// - Throws: ``RendezvousTokenError/noRoute`` with neither;
    ///   ``RendezvousTokenError/tooLong(_:)`` when the token would exceed 32 bytes.
    public init(direct: Endpoint?, relay: Relay? = nil) throws(RendezvousTokenError) {
        guard direct != nil || relay != nil else { throw .noRoute }
        self.direct = direct
        self.relay = relay
        let count = encodedBytes.count
        guard count <= RendezvousToken.maximumByteCount else { throw .tooLong(count) }
    }

    /// A rendezvous naming only the direct address `address:port` (port must not be 0).
    public init?(address: IPv4Address, port: UInt16) {
        guard let endpoint = Endpoint(address: address, port: port) else { return nil }
        direct = endpoint
        relay = nil
    }

    /// Reads a rendezvous token from a QR, strictly (Spec 11.1): the checks run in the order
    /// of the cases of ``RendezvousTokenError``, field by field.
    ///
    /// - Throws: the ``RendezvousTokenError`` of the first rule the token breaks.
    public init(token: RendezvousToken) throws(RendezvousTokenError) {
        let bytes = token.bytes
        guard let flags = bytes.first else { throw .empty }
        guard flags & ~(Self.directFlag | Self.addressFlag | Self.relayFlag) == 0 else { throw .unknownFlags(flags) }
        let hasDirect = flags & Self.directFlag != 0
        let hasAddress = flags & Self.addressFlag != 0
        let hasRelay = flags & Self.relayFlag != 0
        guard !hasAddress || hasDirect else { throw .addressWithoutDirect }
        guard hasDirect || hasRelay else { throw .noRoute }
        var offset = 1
        func take(_ count: Int) throws(RendezvousTokenError) -> ArraySlice<UInt8> {
            guard bytes.count - offset >= count else { throw .truncated }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        func port() throws(RendezvousTokenError) -> UInt16 {
            let field = try take(2)
            let value = UInt16(field[field.startIndex]) << 8 | UInt16(field[field.startIndex + 1])
            guard value != 0 else { throw .zeroPort }
            return value
        }
        if hasDirect {
            let address = hasAddress ? IPv4Address(bytes: Array(try take(4)))! : .loopback
            direct = Endpoint(address: address, port: try port())
        } else {
            direct = nil
        }
        if hasRelay {
            let relayPort = try port()
            relay = Relay(host: try RelayHost(packed: bytes[offset...]), port: relayPort)
        } else {
            guard offset == bytes.count else { throw .trailingBytes }
            relay = nil
        }
    }

    /// The token to put in the QR.
    public var token: RendezvousToken {
        try! RendezvousToken(bytes: encodedBytes)  // the initialisers keep it within 32 bytes
    }

    /// The token's bytes; 127.0.0.1 is left out (flag 0x02 clear).
    private var encodedBytes: [UInt8] {
        var flags: UInt8 = 0
        var bytes: [UInt8] = []
        if let direct {
            flags |= Self.directFlag
            if direct.address != .loopback {
                flags |= Self.addressFlag
                bytes += direct.address.bytes
            }
            bytes += [UInt8(direct.port >> 8), UInt8(truncatingIfNeeded: direct.port)]
        }
        if let relay {
            flags |= Self.relayFlag
            bytes += [UInt8(relay.port >> 8), UInt8(truncatingIfNeeded: relay.port)] + relay.host.packed
        }
        return [flags] + bytes
    }

    /// `address:port`, `relay host:port`, or both.
    public var description: String {
        switch (direct, relay) {
        case (let direct?, let relay?): "\(direct) (relay \(relay))"
        case (let direct?, nil): direct.description
        case (nil, let relay?): "relay \(relay)"
        case (nil, nil): "nowhere"
        }
    }
}
