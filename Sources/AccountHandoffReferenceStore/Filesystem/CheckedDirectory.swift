#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport

/// Why a location check failed: an unsafe location, or a system call failure.
enum LocationError: Error {
    case unsafe(StoreLocationProblem)
    case failed(StoreFailure)

    var accountStoreError: AccountStoreError {
        switch self {
        case .unsafe(let problem): .unsafeLocation(problem)
        case .failed(let failure): .failed(failure)
        }
    }

    var credentialStoreError: CredentialStoreError {
        switch self {
        case .unsafe(let problem): .unsafeLocation(problem)
        case .failed(let failure): .failed(failure)
        }
    }
}

/// An open directory that the store owns: a real directory (never a symbolic link), owned by
/// this user, with no group or other permissions. Everything inside is reached relative to
/// its descriptor, so a path component swapped after opening cannot redirect a write.
final class CheckedDirectory: @unchecked Sendable {
    // Safety of @unchecked Sendable: both properties are immutable after init.
    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens (creating with mode 0700 if missing, unless not `creating`) the directory at `path`.
    static func open(path: String, policy: LoosePermissionsPolicy, creating: Bool = true,
                     warnings: inout [ReferenceStoreWarning]) throws(LocationError) -> CheckedDirectory {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT, creating else { throw .failed(POSIX.failure("lstat(\(path))")) }
            let parent = Self.parent(of: path)
            var parentInfo = stat()
            guard systemStat(parent, &parentInfo) == 0, parentInfo.isDirectory else { throw .unsafe(.missingParent(path: path)) }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .failed(POSIX.failure("mkdir(\(path))")) }
        } else if info.isSymbolicLink {
            throw .unsafe(.symbolicLink(path: path))
        } else if !info.isDirectory {
            throw .unsafe(.notADirectory(path: path))
        }
        let descriptor = BlockingCall.retryingInterrupted("open") { systemOpen(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Self.openFailure(path) }
        let directory = CheckedDirectory(descriptor: descriptor, path: path)
        try directory.checkOwnership(policy: policy, warnings: &warnings)
        return directory
    }

    /// Opens (creating with mode 0700 if missing, unless not `creating`) the subdirectory `name`.
    func subdirectory(_ name: String, policy: LoosePermissionsPolicy, creating: Bool = true,
                      warnings: inout [ReferenceStoreWarning]) throws(LocationError) -> CheckedDirectory {
        let childPath = path + "/" + name
        switch try entry(name) {
        case nil:
            guard creating else { throw .failed(StoreFailure(operation: "open(\(childPath))", domain: .posix, code: ENOENT)) }
            if mkdirat(descriptor, name, 0o700) != 0 && errno != EEXIST { throw .failed(POSIX.failure("mkdirat(\(childPath))")) }
            do { try POSIX.sync(descriptor, path) } catch { throw .failed(error) }
        case let info? where info.isSymbolicLink: throw .unsafe(.symbolicLink(path: childPath))
        case let info? where !info.isDirectory: throw .unsafe(.notADirectory(path: childPath))
        case _?: break
        }
        let child = BlockingCall.retryingInterrupted("openat") { openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard child >= 0 else { throw Self.openFailure(childPath) }
        let directory = CheckedDirectory(descriptor: child, path: childPath)
        try directory.checkOwnership(policy: policy, warnings: &warnings)
        return directory
    }

    /// Checks again that the open directory is still owned by this user and closed to others.
    func recheck() throws(LocationError) {
        var ignored: [ReferenceStoreWarning] = []
        try checkOwnership(policy: .refuse, warnings: &ignored)
    }

    /// Refuses a regular-file-or-nothing path that holds a link, directory or device.
    func requireRegularFileOrNothing(_ name: String) throws(LocationError) {
        guard let info = try entry(name) else { return }
        if info.isSymbolicLink { throw .unsafe(.symbolicLink(path: path + "/" + name)) }
        if !info.isRegularFile { throw .unsafe(.notARegularFile(path: path + "/" + name)) }
    }

    /// The entry `name` without following links; `nil` when absent.
    func entry(_ name: String) throws(LocationError) -> stat? {
        do { return try POSIX.entryStatus(descriptor, name) } catch { throw .failed(error) }
    }

    private func checkOwnership(policy: LoosePermissionsPolicy, warnings: inout [ReferenceStoreWarning]) throws(LocationError) {
        let info: stat
        do { info = try POSIX.status(of: descriptor, path) } catch { throw .failed(error) }
        guard info.st_uid == geteuid() else { throw .unsafe(.ownedByAnotherUser(path: path, owner: UInt32(info.st_uid))) }
        let mode = info.permissions
        guard mode & 0o077 != 0 else { return }
        switch policy {
        case .refuse:
            throw .unsafe(.permissionsTooOpen(path: path, mode: mode))
        case .tighten:
            let tightened = mode & 0o700
            guard fchmod(descriptor, mode_t(tightened)) == 0 else { throw .failed(POSIX.failure("fchmod(\(path))")) }
            warnings.append(.tightenedPermissions(path: path, from: mode, to: tightened))
        }
    }

    private static func openFailure(_ path: String) -> LocationError {
        switch errno {
        case ELOOP: .unsafe(.symbolicLink(path: path))
        case ENOTDIR: .unsafe(.notADirectory(path: path))
        default: .failed(POSIX.failure("open(\(path))"))
        }
    }

    private static func parent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = String(trimmed[..<slash])
        return parent.isEmpty ? "/" : parent
    }
}

/// The libc `open` and `stat`, named so they are not shadowed by the methods above.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemStat(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }
