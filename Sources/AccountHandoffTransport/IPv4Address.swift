/// An IPv4 address, four bytes in network order.
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    /// The four address bytes, most significant first.
    public let bytes: [UInt8]

    /// `127.0.0.1`.
    public static let loopback = IPv4Address(uncheckedBytes: [127, 0, 0, 1])

    /// Wraps exactly four bytes; `nil` otherwise.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 else { return nil }
        self.bytes = bytes
    }

    private init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }

    /// Parses dotted-quad text such as `127.0.0.1`; `nil` for anything else (no leading zeros,
    /// no spaces, each part 0...255).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part == "0" || !part.hasPrefix("0"), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        self.bytes = bytes
    }

    /// `0.0.0.0`, which a listener reads as "every address of this machine".
    public static let unspecified = IPv4Address(uncheckedBytes: [0, 0, 0, 0])

    /// Whether the address is `0.0.0.0`: it names no one machine, so a code must never
    /// advertise it.
    public var isUnspecified: Bool { bytes == [0, 0, 0, 0] }

    /// Whether the address is in 127.0.0.0/8, reachable only from this machine.
    public var isLoopback: Bool { bytes[0] == 127 }

    /// Whether the address is in 169.254.0.0/16 (RFC 3927), self-assigned on a link without
    /// a DHCP server.
    public var isLinkLocal: Bool { bytes[0] == 169 && bytes[1] == 254 }

    /// Whether the address is in a private range of RFC 1918: 10.0.0.0/8, 172.16.0.0/12 or
    /// 192.168.0.0/16.
    public var isPrivate: Bool {
        bytes[0] == 10 || (bytes[0] == 172 && (16...31).contains(bytes[1])) || (bytes[0] == 192 && bytes[1] == 168)
    }

    /// Whether the address is in 100.64.0.0/10 (RFC 6598), the shared address space of
    /// carrier-grade NAT and of overlay networks such as Tailscale.
    public var isSharedAddressSpace: Bool { bytes[0] == 100 && (64...127).contains(bytes[1]) }

    /// Whether the address is in 224.0.0.0/4 (multicast).
    public var isMulticast: Bool { (224...239).contains(bytes[0]) }

    /// Whether the address is `255.255.255.255`, the limited broadcast address.
    public var isBroadcast: Bool { bytes == [255, 255, 255, 255] }

    /// The address as a 32-bit number in host order.
    var value: UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }

    /// Dotted-quad text.
    public var description: String { bytes.map(String.init).joined(separator: ".") }
}
