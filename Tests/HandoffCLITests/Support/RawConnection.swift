#if canImport(Glibc)
import Glibc
#endif
import AccountHandoff
import AccountHandoffTransport
import Foundation
import Testing

/// A plain TCP connection to a loopback port, written by hand the way a hostile local
/// program would: no library framing unless the test builds it, non-blocking I/O, and
/// `MSG_NOSIGNAL` so a peer that hangs up never kills the test process with SIGPIPE.
final class RawConnection: @unchecked Sendable {
    // Safety of @unchecked Sendable: each connection is used by one thread at a time.
    let descriptor: Int32
    /// This side's port, to tell the test's own connections apart in a capture.
    let localPort: UInt16
    /// When the connection was established.
    let openedAt = ContinuousClock.now
    private(set) var isClosed = false

    /// Connects to `127.0.0.1:port` (or `address`), waiting at most `timeout`; `nil` when
    /// the connection cannot be made in time.
    static func connect(port: UInt16, address: String = "127.0.0.1", timeout: Duration = .seconds(30)) -> RawConnection? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &target.sin_addr)
        let status = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if status != 0 {
            guard errno == EINPROGRESS else { Glibc.close(descriptor); return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard poll(&entry, 1, milliseconds) == 1,
                  getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
                Glibc.close(descriptor)
                return nil
            }
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return RawConnection(descriptor: descriptor, localPort: UInt16(bigEndian: local.sin_port))
    }

    private init(descriptor: Int32, localPort: UInt16) {
        self.descriptor = descriptor
        self.localPort = localPort
    }

    deinit { close() }

    /// Writes as much of `bytes` as the kernel takes now; the count written, or `nil` when
    /// the peer closed the connection.
    func writeSome(_ bytes: [UInt8]) -> Int? {
        guard !isClosed else { return nil }
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Writes all of `bytes`, waiting up to `timeout`; whether it all went out.
    @discardableResult
    func writeAll(_ bytes: [UInt8], timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            guard let written = writeSome(Array(bytes[offset...])) else { return false }
            offset += written
            if offset < bytes.count {
                guard ContinuousClock.now < deadline else { return false }
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 20)
            }
        }
        return true
    }

    /// Reads exactly `count` bytes within `timeout`; `nil` when the peer closed first or the
    /// time ran out.
    func read(exactly count: Int, timeout: Duration = .seconds(30)) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while bytes.count < count, !isClosed {
            var buffer = [UInt8](repeating: 0, count: count - bytes.count)
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if received > 0 {
                bytes += buffer[0..<received]
                continue
            }
            if received == 0 { return nil }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 20)
        }
        return bytes.count == count ? bytes : nil
    }

    /// Whether the peer has closed (or reset) the connection; reads and drops anything it sent.
    func peerHasClosed() -> Bool {
        guard !isClosed else { return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { return true }
            return !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
    }

    /// Waits up to `timeout` for the peer to close the connection.
    func waitForPeerClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if peerHasClosed() { return true }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 20)
        }
        return peerHasClosed()
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }
}

/// What a hostile program needs from a transfer code it saw: where to connect, the transport
/// keys that pass admission (Spec 11.3, 11.4) and the transfer ID (all derived from the QR).
struct ScannedTarget {
    let port: UInt16
    let keys: TransportKeys
    let transferID: TransferID

    init(code: String) throws {
        let payload = try SessionPayload(text: code)
        let rendezvous = try TCPRendezvous(token: payload.rendezvous)
        port = try #require(rendezvous.direct).port
        keys = try TransportKeys(payload: payload)
        transferID = payload.transferID
    }

    /// The admission response to the challenge on `connection`, as someone who saw the QR
    /// answers; `nil` when no challenge came within `timeout`.
    func response(on connection: RawConnection, timeout: Duration = .seconds(30)) -> [UInt8]? {
        guard let challenge = connection.read(exactly: Admission.challengeByteCount, timeout: timeout),
              case .answer(let response) = Admission.answer(challenge, keys: keys) else { return nil }
        return response
    }

    /// Reads the challenge on `connection` and answers it; whether that worked.
    func admit(_ connection: RawConnection, timeout: Duration = .seconds(30)) -> Bool {
        guard let response = response(on: connection, timeout: timeout) else { return false }
        return connection.writeAll(response, timeout: timeout)
    }

    /// A forged hello for this transfer: the right header, a random key and a random MAC.
    func forgedHello() -> [UInt8] {
        var body = [UInt8](repeating: 0, count: 64)
        body.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
        return [SessionPayload.currentVersion, 1] + transferID.bytes + [0, 0, 0, 0, 0, 64] + body
    }

    /// `frame` with its length prefix, as it travels on the stream.
    static func onTheWire(_ frame: [UInt8]) -> [UInt8] {
        [UInt8(frame.count >> 8), UInt8(frame.count & 0xFF)] + frame
    }
}
