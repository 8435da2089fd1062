#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A loopback port nothing listens on (bound and closed again).
package enum ClosedPort {
    /// A port that was free a moment ago; `nil` when no socket could be made.
    package static func find() -> UInt16? {
        let listener = try? SilentListener()
        guard let listener else { return nil }
        let port = listener.port
        listener.close()
        return port
    }
}

/// A listening loopback socket that accepts connections in the kernel but never answers:
/// the TCP handshake succeeds, no IMAP greeting ever comes.
package final class SilentListener: @unchecked Sendable {
    // Safety of @unchecked Sendable: `descriptor` is immutable; close() is called once by the test.
    package let port: UInt16
    private let descriptor: Int32

    /// The socket could not be made, bound or put to listening.
    package struct Failed: Error {}

    /// Listens on a free port of 127.0.0.1.
    package init() throws {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0, listen(socket, 16) == 0 else {
            Glibc_close(socket)
            throw Failed()
        }
        descriptor = socket
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether a client connected: the kernel completed its handshake, and the connection
    /// waits to be accepted (it never is).
    package var hasConnection: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// Stops listening.
    package func close() { Glibc_close(descriptor) }
}

private func Glibc_close(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
