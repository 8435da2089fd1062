import AccountHandoff

/// Where a receiver finds the sender on a local network, and the tag that proves a connection
/// came from someone who read the QR. It travels in the QR as the session's rendezvous token:
///
/// - 8 bytes `port(2, big-endian) | tag(6)` for `127.0.0.1`;
/// - 12 bytes `IPv4(4) | port(2) | tag(6)` for any other address.
///
/// The tag is public (the QR is) and is not a security element: it only lets the sender drop
/// stray connections before they reach the session. The protocol's own authentication does
/// the rest.
public struct TCPRendezvous: Hashable, Sendable, CustomStringConvertible {
    /// Length of the connection tag.
    public static let tagByteCount = 6

    /// The sender's address.
    public let address: IPv4Address
    /// The sender's TCP port (never 0).
    public let port: UInt16
    /// The tag a connecting receiver presents first.
    public let tag: [UInt8]

    /// Builds a rendezvous; `nil` for port 0 or a tag that is not 6 bytes.
    public init?(address: IPv4Address, port: UInt16, tag: [UInt8]) {
        guard port != 0, tag.count == Self.tagByteCount else { return nil }
        self.address = address
        self.port = port
        self.tag = tag
    }

    /// Reads a rendezvous token from a QR.
    ///
    /// - Throws: ``TransportError/unsupportedRendezvous`` for any other length or port 0.
    public init(token: RendezvousToken) throws(TransportError) {
        let bytes = token.bytes
        let address: IPv4Address
        let rest: ArraySlice<UInt8>
        switch bytes.count {
        case 2 + Self.tagByteCount:
            address = .loopback
            rest = bytes[...]
        case 4 + 2 + Self.tagByteCount:
            address = IPv4Address(bytes: Array(bytes[0..<4]))!
            rest = bytes[4...]
        default:
            throw .unsupportedRendezvous
        }
        let port = UInt16(rest[rest.startIndex]) << 8 | UInt16(rest[rest.startIndex + 1])
        guard let rendezvous = TCPRendezvous(address: address, port: port, tag: Array(rest.dropFirst(2))) else {
            throw .unsupportedRendezvous
        }
        self = rendezvous
    }

    /// The token to put in the QR: 8 bytes on 127.0.0.1, 12 bytes elsewhere.
    public var token: RendezvousToken {
        var bytes = address == .loopback ? [] : address.bytes
        bytes += [UInt8(port >> 8), UInt8(truncatingIfNeeded: port)] + tag
        return try! RendezvousToken(bytes: bytes)  // at most 12 bytes, below the 32-byte cap
    }

    /// The bytes a connecting receiver sends before any frame: `AHT1` and the tag.
    public var preamble: [UInt8] { Self.preambleMagic + tag }

    /// The fixed start of every preamble.
    static let preambleMagic = Array("AHT1".utf8)
    /// Length of a preamble.
    static let preambleByteCount = preambleMagic.count + tagByteCount

    /// `address:port`; the tag is left out.
    public var description: String { "\(address):\(port)" }
}
