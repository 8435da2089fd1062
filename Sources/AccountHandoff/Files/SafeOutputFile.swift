#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole file that only its owner can read, atomically and without ever writing
/// through, or replacing, something that is not a regular file.
///
/// Each write:
/// 1. opens the folder that will hold the file once, and works relative to it from then on;
/// 2. refuses a target that is a symbolic link (never followed, never replaced) or exists
///    and is not a regular file (a device such as `/dev/full`, a FIFO, a folder, a socket),
///    without opening it, so a FIFO cannot make it hang;
/// 3. creates a temporary file next to the target with `O_CREAT | O_EXCL | O_NOFOLLOW` and
///    mode 0600 (set again with `fchmod`, whatever the umask), writes every byte and flushes
///    it to disk;
/// 4. checks the target again, then renames the temporary file over it (``ExistingFile/replace``)
///    or links it there only if nothing is there yet (``ExistingFile/refuse``);
/// 5. flushes the folder, so the new name survives a crash.
///
/// A reader therefore sees the old file or the new one, never part of either, and the new
/// file always has mode 0600. Only the last path component is protected from links; the
/// folders above it are resolved as usual. If someone swaps the target for a link or a
/// special file between the last check and the rename, the rename replaces that name; it
/// never writes into what the name pointed to.
public enum SafeOutputFile {
    /// What to do when the target is an existing regular file.
    public enum ExistingFile: Hashable, Sendable {
        /// Replace it atomically; the new file has mode 0600 whatever the old one had.
        case replace
        /// Leave it and throw ``SafeOutputFileError/alreadyExists(_:)``; the check and the
        /// creation are one step (`link`), so a file created meanwhile is not replaced either.
        case refuse
    }

    /// The mode of every file written.
    public static let mode: mode_t = 0o600

    /// Writes `bytes` to `path`.
    ///
    /// - Throws: ``SafeOutputFileError``; the target is unchanged unless the error is
    ///   ``SafeOutputFileError/writeFailed(_:operation:errno:)`` for the folder's flush.
    public static func write(_ bytes: [UInt8], to path: String, existing: ExistingFile = .replace) throws(SafeOutputFileError) {
        // withUnsafeBytes rethrows untyped errors; carry the typed one out.
        let failure: SafeOutputFileError? = bytes.withUnsafeBytes { buffer in
            do throws(SafeOutputFileError) { try write(buffer, to: path, existing: existing) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes the bytes of `buffer` to `path`; for secrets kept in guarded memory, which then
    /// go to the file without an intermediate copy.
    ///
    /// - Throws: ``SafeOutputFileError``; the target is unchanged unless the error is
    ///   ``SafeOutputFileError/writeFailed(_:operation:errno:)`` for the folder's flush.
    public static func write(_ buffer: UnsafeRawBufferPointer, to path: String, existing: ExistingFile = .replace) throws(SafeOutputFileError) {
        let (folderPath, name) = try split(path)
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw .folderUnavailable(path, errno: errno) }
        defer { _ = closeDescriptor(folder) }

        try checkTarget(name, in: folder, path: path, existing: existing)
        let temporary = try writeTemporary(buffer, in: folder, path: path)
        do {
            try checkTarget(name, in: folder, path: path, existing: existing)
            try place(temporary, as: name, in: folder, path: path, existing: existing)
        } catch {
            unlinkat(folder, temporary, 0)
            throw error
        }
        if existing == .refuse { unlinkat(folder, temporary, 0) }  // the target is a second link to it
        guard flush(folder) == 0 || errno == EINVAL || errno == ENOTSUP else {
            throw .writeFailed(path, operation: "flushing its folder", errno: errno)
        }
    }

    /// Checks, without writing, that `write(_:to:existing:)` could place a file at `path`
    /// now: its folder opens and the target is absent or a regular file. For refusing a bad
    /// path before any work that the file would report on.
    ///
    /// - Throws: the ``SafeOutputFileError`` that a write would throw for the target.
    public static func checkCanWrite(to path: String, existing: ExistingFile = .replace) throws(SafeOutputFileError) {
        let (folderPath, name) = try split(path)
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw .folderUnavailable(path, errno: errno) }
        defer { _ = closeDescriptor(folder) }
        try checkTarget(name, in: folder, path: path, existing: existing)
    }

    // MARK: Steps

    /// The folder (`.` for a bare name) and the last component.
    static func split(_ path: String) throws(SafeOutputFileError) -> (folder: String, name: String) {
        guard !path.isEmpty, !path.hasSuffix("/"), !path.utf8.contains(0) else { throw .invalidPath(path) }
        let name: String
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            name = String(path[path.index(after: slash)...])
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            name = path
            folder = "."
        }
        guard name != ".", name != ".." else { throw .invalidPath(path) }
        return (folder, name)
    }

    /// Looks at the target without following or opening it.
    private static func checkTarget(_ name: String, in folder: Int32, path: String, existing: ExistingFile) throws(SafeOutputFileError) {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            guard errno == ENOENT else { throw .writeFailed(path, operation: "checking the target", errno: errno) }
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: if existing == .refuse { throw .alreadyExists(path) }
        case S_IFLNK: throw .symbolicLink(path)
        case S_IFDIR: throw .notARegularFile(path, kind: .directory)
        case S_IFIFO: throw .notARegularFile(path, kind: .fifo)
        case S_IFCHR: throw .notARegularFile(path, kind: .characterDevice)
        case S_IFBLK: throw .notARegularFile(path, kind: .blockDevice)
        case S_IFSOCK: throw .notARegularFile(path, kind: .socket)
        default: throw .notARegularFile(path, kind: .other)
        }
    }

    /// Creates, fills and flushes a new 0600 file in `folder`; returns its name.
    private static func writeTemporary(_ buffer: UnsafeRawBufferPointer, in folder: Int32, path: String) throws(SafeOutputFileError) -> String {
        var name = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 where descriptor < 0 {
            name = ".handoff-\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
            descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                guard errno == EEXIST else { throw .writeFailed(path, operation: "creating a temporary file", errno: errno) }
                continue
            }
        }
        guard descriptor >= 0 else { throw .writeFailed(path, operation: "creating a temporary file", errno: EEXIST) }
        var failure: (operation: String, errno: Int32)?
        if fchmod(descriptor, mode) != 0 {
            failure = ("setting its mode", errno)
        } else if let code = writeAll(buffer, to: descriptor) {
            failure = ("writing", code)
        } else if flush(descriptor) != 0 {
            failure = ("flushing it to disk", errno)
        }
        if closeDescriptor(descriptor) != 0, failure == nil { failure = ("closing it", errno) }
        if let failure {
            unlinkat(folder, name, 0)
            throw .writeFailed(path, operation: failure.operation, errno: failure.errno)
        }
        return name
    }

    /// Puts the temporary file at the target's name.
    private static func place(_ temporary: String, as name: String, in folder: Int32, path: String, existing: ExistingFile) throws(SafeOutputFileError) {
        switch existing {
        case .replace:
            guard renameat(folder, temporary, folder, name) == 0 else { throw .writeFailed(path, operation: "renaming", errno: errno) }
        case .refuse:
            guard linkat(folder, temporary, folder, name, 0) == 0 else {
                guard errno == EEXIST else { throw .writeFailed(path, operation: "linking", errno: errno) }
                // Something appeared meanwhile: say what it is.
                try checkTarget(name, in: folder, path: path, existing: .refuse)
                throw .alreadyExists(path)
            }
        }
    }

    // MARK: System calls

    /// Writes every byte; `nil` or the failing errno.
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written == 0 ? EIO : errno }
            offset += written
        }
        return nil
    }

    /// Flushes a file or folder to stable storage (`F_FULLFSYNC` where the system has it).
    private static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }
}
