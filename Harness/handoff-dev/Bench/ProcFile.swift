import HandoffCLI
import Foundation

/// Reads a `/proc` file to its end. The kernel reports these files' size as 0 and generates
/// them a page or so per read, so a reader that trusts the size or stops after one read sees
/// only the start: one 4,096-byte read of `/proc/self/maps` holds at most 85 of its lines.
enum ProcFile {
    /// The whole file, read until `read` returns 0; nil when it cannot be opened or read
    /// (there is no `/proc` outside Linux).
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
