@testable import AccountHandoffTransport
import Foundation

/// Blocking socket calls with deadlines (`poll`), for the relay's own threads.
enum Blocking {
    static func wait(_ socket: POSIXSocket, for events: Int16, timeout: Duration) throws(TransportError) -> Bool {
        try RawPeer.wait(socket, for: events, until: .now + timeout)
    }

    /// Up to `maximum` bytes; `[]` at the end of the stream.
    static func read(_ socket: POSIXSocket, maximum: Int, timeout: Duration) throws(TransportError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard try RawPeer.wait(socket, for: Int16(POLLIN), until: deadline) else { throw .timedOut }
            do {
                if let chunk = try socket.readAvailable(maximum: maximum) { return chunk }
            } catch .closedByPeer {
                return []
            }
        }
    }

    static func read(_ socket: POSIXSocket, exactly count: Int, timeout: Duration) throws(TransportError) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = try read(socket, maximum: count - bytes.count, timeout: timeout)
            guard !chunk.isEmpty else { throw .closedByPeer }
            bytes += chunk
        }
        return bytes
    }

    static func write(_ socket: POSIXSocket, _ bytes: [UInt8]) throws(TransportError) {
        let deadline = ContinuousClock.now + .seconds(10)
        var offset = 0
        while offset < bytes.count {
            offset += try socket.writeSome(bytes[offset...])
            if offset < bytes.count { guard try RawPeer.wait(socket, for: Int16(POLLOUT), until: deadline) else { throw .timedOut } }
        }
    }
}

extension POSIXSocket {
    /// Stops both directions without closing the descriptor (a thread may still poll it; the
    /// descriptor closes when the socket is released).
    func shutdownBoth() {
        guard isOpen else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
