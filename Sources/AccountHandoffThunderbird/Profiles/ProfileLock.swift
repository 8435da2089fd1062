#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// Thunderbird's own lock on a profile, taken the way Thunderbird takes it, so that Thunderbird
/// cannot start on the profile while an import writes it, and an import never starts while
/// Thunderbird runs:
///
/// 1. a POSIX record lock (`fcntl(F_SETLK)`, a write lock on the whole file) on `.parentlock`,
///    which Thunderbird holds for as long as it runs and the kernel drops when its process ends;
/// 2. the symbolic link `lock` pointing to `ADDRESS:+PID`, which older builds and file systems
///    without record locks use; the `+` marks it as one a holder of the record lock may break.
///
/// Record locks belong to the process, and closing any descriptor of the file drops them, so
/// nothing else in this process opens `.parentlock`, and a registry refuses a second lock on
/// the same profile in this process. A `.parentlock` this lock had to create (a profile
/// Thunderbird never started) holds ``createdMark`` and is removed again on release, also by
/// the next lock after a crash, so the profile is left as it was.
final class ProfileLock {
    static let recordLockName = ".parentlock"
    static let linkName = "lock"
    /// What a `.parentlock` made by this lock holds (Thunderbird's own is empty).
    static let createdMark = Array("AccountHandoff\n".utf8)

    private let folder: ProfileFolder
    private let descriptor: Int32
    private let identity: FileIdentity
    private let createdRecordLockFile: Bool
    private let linkTarget: String?
    private var released = false

    private init(folder: ProfileFolder, descriptor: Int32, identity: FileIdentity, createdRecordLockFile: Bool, linkTarget: String?) {
        self.folder = folder
        self.descriptor = descriptor
        self.identity = identity
        self.createdRecordLockFile = createdRecordLockFile
        self.linkTarget = linkTarget
    }

    deinit { release() }

    /// Takes the lock of the profile in `folder`.
    ///
    /// - Throws: ``ThunderbirdProfileError/thunderbirdRunning(path:processID:)`` while
    ///   Thunderbird (or another program that locks profiles) holds it;
    ///   ``ThunderbirdProfileError/importAlreadyRunning(path:)`` when this process holds it;
    ///   ``ThunderbirdProfileError/readOnly(path:)`` when the lock file cannot be opened for writing.
    static func acquire(_ folder: ProfileFolder) throws(ThunderbirdProfileError) -> ProfileLock {
        var folderInfo = stat()
        guard fstat(folder.descriptor, &folderInfo) == 0 else {
            throw .fileOperationFailed(path: folder.path, operation: ProfileFileOperation.examined.rawValue, code: errno)
        }
        let identity = FileIdentity(device: UInt64(folderInfo.st_dev), inode: UInt64(folderInfo.st_ino))
        guard HeldLocks.shared.claim(identity) else { throw .importAlreadyRunning(path: folder.path) }
        do throws(ThunderbirdProfileError) {
            let (descriptor, created) = try openRecordLockFile(folder)
            do throws(ThunderbirdProfileError) {
                var request = flock()
                request.l_type = Int16(F_WRLCK)
                request.l_whence = Int16(SEEK_SET)
                request.l_start = 0
                request.l_len = 0
                if BlockingCall.retryingInterrupted("fcntl(F_SETLK)", { fcntl(descriptor, F_SETLK, &request) }) != 0 {
                    guard errno == EAGAIN || errno == EACCES else {
                        throw .fileOperationFailed(path: folder.path(of: recordLockName), operation: ProfileFileOperation.locked.rawValue, code: errno)
                    }
                    throw .thunderbirdRunning(path: folder.path, processID: holder(of: descriptor))
                }
                let target = try placeLink(folder)
                // A file this lock made before a crash is removed on release too, now that
                // this process holds it.
                return ProfileLock(folder: folder, descriptor: descriptor, identity: identity,
                                   createdRecordLockFile: created || hasCreatedMark(descriptor), linkTarget: target)
            } catch {
                if created { unlinkat(folder.descriptor, recordLockName, 0) }
                close(descriptor)
                throw error
            }
        } catch {
            HeldLocks.shared.release(identity)
            throw error
        }
    }

    /// Gives the lock back: removes the link and a lock file it created, then drops the record
    /// lock. Idempotent.
    func release() {
        guard !released else { return }
        released = true
        if let linkTarget, Self.readLink(folder, Self.linkName) == linkTarget {
            unlinkat(folder.descriptor, Self.linkName, 0)
        }
        if createdRecordLockFile { unlinkat(folder.descriptor, Self.recordLockName, 0) }
        var request = flock()
        request.l_type = Int16(F_UNLCK)
        request.l_whence = Int16(SEEK_SET)
        _ = BlockingCall.retryingInterrupted("fcntl(F_SETLK)") { fcntl(descriptor, F_SETLK, &request) }
        close(descriptor)
        HeldLocks.shared.release(identity)
    }

    // MARK: Steps

    private static func openRecordLockFile(_ folder: ProfileFolder) throws(ThunderbirdProfileError) -> (Int32, Bool) {
        var descriptor = openat(folder.descriptor, recordLockName, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        var created = false
        if descriptor < 0, errno == ENOENT {
            // Thunderbird makes it with mode 0666 less the umask, like any new file.
            descriptor = openat(folder.descriptor, recordLockName, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                created = true
                if createdMark.withUnsafeBytes({ BlockingCall.writeAll(descriptor, $0) }) != nil {
                    let code = errno
                    unlinkat(folder.descriptor, recordLockName, 0)
                    close(descriptor)
                    switch code {
                    case EROFS, EACCES, EPERM: throw .readOnly(path: folder.path)
                    default: throw .fileOperationFailed(path: folder.path(of: recordLockName), operation: ProfileFileOperation.written.rawValue, code: code)
                    }
                }
            }
        }
        guard descriptor >= 0 else {
            switch errno {
            case EROFS, EACCES, EPERM: throw .readOnly(path: folder.path)
            case ELOOP: throw .notARegularFile(path: folder.path(of: recordLockName))
            default: throw .fileOperationFailed(path: folder.path(of: recordLockName), operation: ProfileFileOperation.opened.rawValue, code: errno)
            }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            if created { unlinkat(folder.descriptor, recordLockName, 0) }
            close(descriptor)
            throw .notARegularFile(path: folder.path(of: recordLockName))
        }
        return (descriptor, created)
    }

    private static func hasCreatedMark(_ descriptor: Int32) -> Bool {
        var bytes = [UInt8](repeating: 0, count: createdMark.count + 1)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count == createdMark.count && Array(bytes.prefix(count)) == createdMark
    }

    /// Places `lock -> 127.0.0.1:+PID`. An existing link that names a live process without the
    /// `+` mark belongs to a Thunderbird that locks by link only: the profile is in use. One
    /// with the mark (its holder would hold the record lock, which this process now holds) or
    /// naming a dead process is stale and is replaced, as Thunderbird replaces it.
    private static func placeLink(_ folder: ProfileFolder) throws(ThunderbirdProfileError) -> String? {
        let target = "127.0.0.1:+\(getpid())"
        if let existing = readLink(folder, linkName) {
            if let process = liveUnmarkedHolder(existing) { throw .thunderbirdRunning(path: folder.path, processID: process) }
            unlinkat(folder.descriptor, linkName, 0)
        }
        guard symlinkat(target, folder.descriptor, linkName) == 0 else {
            // A file system without symbolic links: the record lock alone protects the profile.
            return nil
        }
        return target
    }

    private static func liveUnmarkedHolder(_ target: String) -> Int32? {
        guard let colon = target.lastIndex(of: ":") else { return nil }
        let tail = target[target.index(after: colon)...]
        guard !tail.hasPrefix("+"), let process = Int32(tail), process > 0 else { return nil }
        return kill(process, 0) == 0 || errno == EPERM ? process : nil
    }

    private static func readLink(_ folder: ProfileFolder, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlinkat(folder.descriptor, name, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func holder(of descriptor: Int32) -> Int32? {
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_GETLK, &query) == 0, query.l_type != Int16(F_UNLCK), query.l_pid > 0 else { return nil }
        return query.l_pid
    }
}

/// A file's identity: its device and inode.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
}

/// The profiles this process holds locked.
final class HeldLocks: @unchecked Sendable {
    // Safety of @unchecked Sendable: `held` is only touched under `lock`.
    static let shared = HeldLocks()
    private let lock = NSLock()
    private var held: Set<FileIdentity> = []

    func claim(_ identity: FileIdentity) -> Bool { lock.withLock { held.insert(identity).inserted } }
    func release(_ identity: FileIdentity) { lock.withLock { _ = held.remove(identity) } }
}
