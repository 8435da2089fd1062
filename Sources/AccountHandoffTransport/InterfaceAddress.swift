#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// One IPv4 address assigned to a network interface of this machine.
public struct InterfaceAddress: Hashable, Sendable, CustomStringConvertible {
    /// The interface's name, such as `lo`, `eth0` or `en0`.
    public let interfaceName: String
    /// The address.
    public let address: IPv4Address
    /// Whether the interface is up.
    public let isUp: Bool

    /// Describes an interface address (for tests and for apps that list addresses they found
    /// some other way).
    public init(interfaceName: String, address: IPv4Address, isUp: Bool) {
        self.interfaceName = interfaceName
        self.address = address
        self.isUp = isUp
    }

    /// `address (interface)`, such as `192.168.1.20 (en0)`.
    public var description: String { "\(address) (\(interfaceName))" }

    /// The IPv4 addresses of this machine's interfaces, in the order the system lists them.
    ///
    /// - Throws: ``InterfaceAddressError/unavailable(errno:)`` when the system cannot list them.
    public static func all() throws(InterfaceAddressError) -> [InterfaceAddress] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { throw .unavailable(errno: errno) }
        defer { freeifaddrs(first) }
        var found: [InterfaceAddress] = []
        var cursor = first
        while let entry = cursor?.pointee {
            cursor = entry.ifa_next
            guard let socketAddress = entry.ifa_addr, Int32(socketAddress.pointee.sa_family) == AF_INET else { continue }
            let value = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let bytes = [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
            found.append(InterfaceAddress(interfaceName: String(cString: entry.ifa_name), address: IPv4Address(bytes: bytes)!,
                                          isUp: entry.ifa_flags & UInt32(IFF_UP) != 0))
        }
        return found
    }
}

/// Why this machine's interface addresses could not be listed.
public enum InterfaceAddressError: Error, Hashable, Sendable {
    /// `getifaddrs` failed with this errno.
    case unavailable(errno: Int32)
}

extension InterfaceAddressError: TranslatedSentence {
    /// A whole sentence for people, with what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .unavailable(let code):
            sentenceCatalog.sentence("interfaces.unavailable", .text(SystemErrorWords.cause(code, in: language)), in: language)
        }
    }
}
