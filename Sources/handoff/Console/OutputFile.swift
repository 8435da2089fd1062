#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a file the person named (a QR image, which holds the transfer code): readable by
/// its owner only (mode 0600), written atomically (a new file next to it, flushed, renamed
/// over it), and only over nothing or a regular file. A directory, a symbolic link, a device
/// or a named pipe at the path is refused and left as it was.
enum OutputFile {
    static func write(_ data: Data, to path: String, what: String) throws(CLIError) {
        try checkTarget(path, what: what)
        let url = URL(fileURLWithPath: path)
        var template = Array((url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)  // mode 0600, O_EXCL
        guard descriptor >= 0 else { throw cannotWrite(path) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written, fsync(descriptor) == 0, close(descriptor) == 0 else {
            unlink(temporary)
            throw cannotWrite(path)
        }
        do { try checkTarget(path, what: what) } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw cannotWrite(path)
        }
    }

    /// Refuses anything but nothing or a regular file at `path`, without following a link.
    private static func checkTarget(_ path: String, what: String) throws(CLIError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFLNK: kind = "a symbolic link"
        case S_IFIFO: kind = "a named pipe"
        case S_IFCHR, S_IFBLK: kind = "a device"
        default: kind = "not a regular file"
        }
        throw CLIError("\(path) is \(kind), so the \(what) is not written there; give the path of a new file, or of a regular file to replace.", exitCode: .failure)
    }

    private static func cannotWrite(_ path: String) -> CLIError {
        CLIError("Cannot write \(path); check that its directory exists and is writable.", exitCode: .failure)
    }

    private static func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, pointer, count)
        #else
        Darwin.write(descriptor, pointer, count)
        #endif
    }
}
