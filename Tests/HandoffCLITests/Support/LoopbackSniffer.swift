#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Captures what is sent to one TCP port on the loopback interface, as an attacker with a
/// packet socket would (Linux, needs CAP_NET_RAW: the tests run as root). It reassembles
/// each client's byte stream from the captured segments, so a test can take a real
/// receiver's hello off the wire and replay it.
final class LoopbackSniffer: @unchecked Sendable {
    // Safety of @unchecked Sendable: `streams` and `running` are only touched under `lock`.
    private let descriptor: Int32
    private let port: UInt16
    private let lock = NSLock()
    private var running = true
    /// Per client port: the segments' payloads by sequence number.
    private var streams: [UInt16: [UInt32: [UInt8]]] = [:]
    private var finished = false

    /// Starts capturing IPv4 packets to `127.0.0.1:port`; `nil` without the privilege.
    init?(port: UInt16) {
        // AF_PACKET + SOCK_DGRAM gives whole IP packets; 0x0800 is ETH_P_IP.
        let descriptor = socket(AF_PACKET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Int32(UInt16(0x0800).bigEndian))
        guard descriptor >= 0 else { return nil }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
        self.port = port
        Thread { [self] in capture() }.start()
    }

    /// The bytes client `clientPort` sent, in order, as far as they were captured without a gap.
    func stream(from clientPort: UInt16) -> [UInt8] {
        lock.withLock { Self.reassemble(streams[clientPort] ?? [:]) }
    }

    /// Client ports seen so far.
    var clientPorts: [UInt16] { lock.withLock { Array(streams.keys) } }

    /// Stops capturing.
    func stop() {
        lock.withLock { running = false }
        while !lock.withLock({ finished }) { usleep(10_000) }
        close(descriptor)
    }

    private func capture() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while lock.withLock({ running }) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            record(buffer[0..<count])
        }
        lock.withLock { finished = true }
    }

    /// Keeps the payload of an IPv4/TCP packet from 127.0.0.1 to 127.0.0.1:`port`.
    private func record(_ packet: ArraySlice<UInt8>) {
        let ip = Array(packet)
        guard ip.count >= 20, ip[0] >> 4 == 4, ip[9] == 6, ip[12] == 127, ip[16] == 127 else { return }
        let ipHeader = Int(ip[0] & 0x0F) * 4
        let total = min(ip.count, Int(ip[2]) << 8 | Int(ip[3]))
        guard total >= ipHeader + 20 else { return }
        let tcp = ipHeader
        let source = UInt16(ip[tcp]) << 8 | UInt16(ip[tcp + 1])
        let destination = UInt16(ip[tcp + 2]) << 8 | UInt16(ip[tcp + 3])
        guard destination == port else { return }
        let sequence = ip[(tcp + 4)..<(tcp + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let payloadStart = tcp + Int(ip[tcp + 12] >> 4) * 4
        guard payloadStart < total else { return }
        let payload = Array(ip[payloadStart..<total])
        lock.withLock { streams[source, default: [:]][sequence] = payload }
    }

    /// Concatenates segments in sequence order, stopping at the first gap. Loopback shows
    /// each packet twice (out and in); keying by sequence number drops the copy.
    private static func reassemble(_ segments: [UInt32: [UInt8]]) -> [UInt8] {
        guard let first = segments.keys.min() else { return [] }
        var bytes: [UInt8] = []
        var next = first
        while let segment = segments[next] {
            bytes += segment
            next = next &+ UInt32(segment.count)
        }
        return bytes
    }
}
