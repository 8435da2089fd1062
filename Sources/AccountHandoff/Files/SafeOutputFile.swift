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
///
/// Writing flushes to disk and so blocks: call it on the ``BlockingIOPool`` (or a thread of
/// your own), never on a Swift concurrency thread.
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
        let folder = BlockingCall.retryingInterrupted("open") { open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
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
            throw .writeFailed(path, operation: .flushingFolder, errno: errno)
        }
    }

    /// Checks, without writing, that `write(_:to:existing:)` could place a file at `path`
    /// now: its folder opens and the target is absent or a regular file. For refusing a bad
    /// path before any work that the file would report on.
    ///
    /// - Throws: the ``SafeOutputFileError`` that a write would throw for the target.
    public static func checkCanWrite(to path: String, existing: ExistingFile = .replace) throws(SafeOutputFileError) {
        let (folderPath, name) = try split(path)
        let folder = BlockingCall.retryingInterrupted("open") { open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
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
            guard errno == ENOENT else { throw .writeFailed(path, operation: .checkingTarget, errno: errno) }
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
        for _ in 0..<8 {
            let name = ".handoff-\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
            do throws(NewFileFailure<Never>) {
                try createDurably(name, in: folder, writing: buffer) { _ in }
                return name
            } catch {
                switch error {
                case .creating(let code) where code == EEXIST: continue
                case .creating(let code): throw .writeFailed(path, operation: .creatingTemporaryFile, errno: code)
                case .settingMode(let code): throw .writeFailed(path, operation: .settingMode, errno: code)
                case .writing(let code): throw .writeFailed(path, operation: .writing, errno: code)
                case .flushing(let code): throw .writeFailed(path, operation: .flushing, errno: code)
                case .closing(let code): throw .writeFailed(path, operation: .closing, errno: code)
                }
            }
        }
        throw .writeFailed(path, operation: .creatingTemporaryFile, errno: EEXIST)
    }

    /// Puts the temporary file at the target's name.
    private static func place(_ temporary: String, as name: String, in folder: Int32, path: String, existing: ExistingFile) throws(SafeOutputFileError) {
        switch existing {
        case .replace:
            guard BlockingCall.run("renameat", { renameat(folder, temporary, folder, name) }) == 0 else {
                throw .writeFailed(path, operation: .renaming, errno: errno)
            }
        case .refuse:
            guard BlockingCall.run("linkat", { linkat(folder, temporary, folder, name, 0) }) == 0 else {
                guard errno == EEXIST else { throw .writeFailed(path, operation: .linking, errno: errno) }
                // Something appeared meanwhile: say what it is.
                try checkTarget(name, in: folder, path: path, existing: .refuse)
                throw .alreadyExists(path)
            }
        }
    }

    // MARK: System calls

    /// Flushes a file or folder to stable storage (`F_FULLFSYNC` where the system has it);
    /// 0, or -1 with `errno`. Blocks.
    package static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if BlockingCall.run("fcntl(F_FULLFSYNC)", { fcntl(descriptor, F_FULLFSYNC) }) == 0 { return 0 }
        #endif
        return BlockingCall.retryingInterrupted("fsync") { fsync(descriptor) }
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }
}

extension SafeOutputFile {
    /// A point of ``createDurably(_:in:writing:after:)`` where the caller's hook runs.
    package enum NewFileStep: Sendable {
        /// The file exists, empty, with mode 0600.
        case created
        /// Every byte is written, not yet flushed.
        case written
        /// The file is flushed to stable storage; its folder entry is not yet.
        case flushed
    }

    /// Why ``createDurably(_:in:writing:after:)`` failed: the step's `errno`, or the hook's failure.
    package enum NewFileFailure<HookFailure: Error>: Error {
        case creating(errno: Int32)
        case settingMode(errno: Int32)
        case writing(errno: Int32)
        case flushing(errno: Int32)
        case closing(errno: Int32)
        case hook(HookFailure)
    }

    /// The package's one way to put bytes in a new file durably: creates `name` in `folder`
    /// (it must not exist: `O_EXCL`, never through a symbolic link) with mode 0600 whatever
    /// the umask, writes every byte of `buffer`, flushes it to stable storage and closes it.
    /// On any failure the file is removed. The folder's entry is left to the caller to flush
    /// (after a rename or link, or at once). Blocks: run it where blocking is allowed.
    ///
    /// - Parameters:
    ///   - name: the new file's name in `folder`.
    ///   - folder: the folder's descriptor.
    ///   - buffer: the bytes, written without a copy (a secret goes from guarded memory to the file).
    ///   - reach: runs after each ``NewFileStep``; what it throws fails the write there.
    /// - Throws: ``NewFileFailure``.
    package static func createDurably<HookFailure: Error>(
        _ name: String, in folder: Int32, writing buffer: UnsafeRawBufferPointer,
        after reach: (NewFileStep) throws(HookFailure) -> Void
    ) throws(NewFileFailure<HookFailure>) {
        let descriptor = BlockingCall.retryingInterrupted("openat") {
            openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        guard descriptor >= 0 else { throw .creating(errno: errno) }
        var isOpen = true
        do throws(NewFileFailure<HookFailure>) {
            // The creation mode is reduced by the umask; fchmod makes it exactly 0600.
            guard fchmod(descriptor, mode) == 0 else { throw .settingMode(errno: errno) }
            do { try reach(.created) } catch { throw .hook(error) }
            if let code = BlockingCall.writeAll(descriptor, buffer) { throw .writing(errno: code) }
            do { try reach(.written) } catch { throw .hook(error) }
            guard flush(descriptor) == 0 else { throw .flushing(errno: errno) }
            do { try reach(.flushed) } catch { throw .hook(error) }
            isOpen = false
            guard closeDescriptor(descriptor) == 0 else { throw .closing(errno: errno) }
        } catch {
            if isOpen { _ = closeDescriptor(descriptor) }
            unlinkat(folder, name, 0)
            throw error
        }
    }
}
