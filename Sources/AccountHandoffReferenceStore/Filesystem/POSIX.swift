#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport

/// Small wrappers around the POSIX calls the store makes, reporting `errno` as a ``StoreFailure``.
enum POSIX {
    /// The failure of `operation`, with the current `errno`.
    static func failure(_ operation: String) -> StoreFailure {
        StoreFailure(operation: operation, domain: .posix, code: errno)
    }

    /// `fstatat` without following a final symbolic link; `nil` when nothing exists there.
    static func entryStatus(_ directory: Int32, _ name: String) throws(StoreFailure) -> stat? {
        var info = stat()
        if fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return info }
        if errno == ENOENT { return nil }
        throw failure("fstatat(\(name))")
    }

    /// `fstat` of an open descriptor.
    static func status(of descriptor: Int32, _ name: String) throws(StoreFailure) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("fstat(\(name))") }
        return info
    }

    /// `fsync` (`F_FULLFSYNC` where the system has it), so a crash or power loss keeps what
    /// was written.
    static func sync(_ descriptor: Int32, _ name: String) throws(StoreFailure) {
        guard SafeOutputFile.flush(descriptor) == 0 else { throw failure("fsync(\(name))") }
    }

    /// Overwrites `buffer` with zeros in a way the compiler cannot drop.
    static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Glibc)
        explicit_bzero(base, buffer.count)
        #else
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #endif
    }

    /// The names in a directory, except `.` and `..`.
    static func names(in directory: Int32, _ name: String) throws(StoreFailure) -> [String] {
        let copy = dup(directory)
        guard copy >= 0 else { throw failure("dup(\(name))") }
        guard let stream = fdopendir(copy) else {
            close(copy)
            throw failure("fdopendir(\(name))")
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let entryName = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if entryName != "." && entryName != ".." { names.append(entryName) }
        }
        return names.sorted()
    }
}

extension stat {
    /// Whether this is a regular file.
    var isRegularFile: Bool { (st_mode & S_IFMT) == S_IFREG }
    /// Whether this is a directory.
    var isDirectory: Bool { (st_mode & S_IFMT) == S_IFDIR }
    /// Whether this is a symbolic link.
    var isSymbolicLink: Bool { (st_mode & S_IFMT) == S_IFLNK }
    /// The permission bits.
    var permissions: UInt16 { UInt16(st_mode & 0o7777) }
}
