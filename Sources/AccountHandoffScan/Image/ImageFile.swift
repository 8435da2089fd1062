#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// Reads an image file whole, refusing what is not a regular file and what is larger than the
/// cap before reading it. Blocking: call it from a thread of its own.
enum ImageFile {
    static func contents(of path: String, maximumByteCount: Int) throws(ImageReadError) -> [UInt8] {
        // O_NONBLOCK: a named pipe would otherwise block the open until a writer comes.
        let descriptor = BlockingCall.retryingInterrupted("open") { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        let size = Int(status.st_size)
        guard size > 0 else { throw .empty(path: path) }
        guard size <= maximumByteCount else { throw .fileTooLarge(path: path, byteCount: size, limit: maximumByteCount) }
        // One byte more than the size: a file that grew while it was read is refused, not cut.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { BlockingCall.read(descriptor, into: $0.baseAddress! + filled, count: $0.count - filled) }
            guard count >= 0 else { throw .unreadable(path: path, errno: errno) }
            if count == 0 { break }
            filled += count
        }
        guard filled == size else { throw .changedWhileRead(path: path) }
        bytes.removeLast()
        return bytes
    }
}
