#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// A profile's folder, opened once; every file operation works relative to it and never
/// follows a symbolic link at the last component. Used only on ``ProfileWork``.
final class ProfileFolder {
    /// The folder's absolute path.
    let path: String
    let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens the folder at `path` (a link to a folder is followed: people move profiles).
    ///
    /// - Throws: ``ThunderbirdProfileError/notAProfileFolder(path:code:)``.
    static func opened(at url: URL) throws(ThunderbirdProfileError) -> ProfileFolder {
        let path = url.standardizedFileURL.path
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .notAProfileFolder(path: path, code: errno) }
        return ProfileFolder(path: path, descriptor: descriptor)
    }

    /// The folder `name` inside this one (never through a link).
    func subfolder(_ name: String) throws(ThunderbirdProfileError) -> ProfileFolder {
        let descriptor = openat(self.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.opened.rawValue, code: errno) }
        return ProfileFolder(path: path(of: name), descriptor: descriptor)
    }

    /// The full path of `name` in the folder.
    func path(of name: String) -> String { path + "/" + name }

    /// `lstat` of `name`; `nil` when nothing is there.
    func status(of name: String) throws(ThunderbirdProfileError) -> stat? {
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return info }
        guard errno == ENOENT else { throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.examined.rawValue, code: errno) }
        return nil
    }

    /// The bytes of the regular file `name`; `nil` when it does not exist.
    ///
    /// - Throws: ``ThunderbirdProfileError/notARegularFile(path:)`` for a link or a special
    ///   file; ``ThunderbirdProfileError/fileOperationFailed(path:operation:code:)`` (`EFBIG`
    ///   beyond `maximumByteCount`).
    func read(_ name: String, maximumByteCount: Int) throws(ThunderbirdProfileError) -> [UInt8]? {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .notARegularFile(path: path(of: name))
            default: throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.read.rawValue, code: errno)
            }
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.read.rawValue, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path(of: name)) }
        guard Int(info.st_size) <= maximumByteCount else { throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.read.rawValue, code: EFBIG) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            let count = bytes.withUnsafeMutableBytes { BlockingCall.read(file, into: $0.baseAddress! + filled, count: $0.count - filled) }
            guard count >= 0 else { throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.read.rawValue, code: errno) }
            if count == 0 { break }
            filled += count
            guard filled < bytes.count else { throw .fileOperationFailed(path: path(of: name), operation: ProfileFileOperation.read.rawValue, code: EFBIG) }
        }
        return Array(bytes[..<filled])
    }

    /// Checks that new files can be made in the folder now, by making and removing one.
    ///
    /// - Throws: ``ThunderbirdProfileError/readOnly(path:)`` when it cannot.
    func checkWritable() throws(ThunderbirdProfileError) {
        let probe = ".handoff-probe-\(UUID().uuidString.lowercased())"
        let file = openat(descriptor, probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            switch errno {
            case EROFS, EACCES, EPERM: throw .readOnly(path: path)
            default: throw .fileOperationFailed(path: path, operation: ProfileFileOperation.written.rawValue, code: errno)
            }
        }
        close(file)
        unlinkat(descriptor, probe, 0)
    }

    /// Flushes the folder's entries to disk.
    func sync() throws(ThunderbirdProfileError) {
        guard BlockingCall.retryingInterrupted("fsync", { fsync(descriptor) }) == 0 || errno == EINVAL else {
            throw .fileOperationFailed(path: path, operation: ProfileFileOperation.flushedToDisk.rawValue, code: errno)
        }
    }
}
