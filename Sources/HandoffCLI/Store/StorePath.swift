#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffLocalAuthentication
import AccountHandoffReferenceStore
import Foundation

/// The `--store` directory, checked before anything else happens: refused when empty or
/// unusable, so the CLI never works in (or changes the mode of) a directory it did not mean.
struct StorePath {
    /// Where accounts go unless `--store` says otherwise.
    static let defaultDirectory = "handoff-store"

    /// Whether the directory exists, and whether this user can write to it.
    enum State: Equatable {
        /// Nothing is there yet; its parent exists and takes a new directory.
        case missing
        /// An existing store directory this user can write to.
        case writable
        /// An existing store directory this user cannot write to (or on a read-only file system).
        case readOnly
    }

    let url: URL
    var path: String { url.path }

    /// The `--store` value, or the default; an empty value is refused.
    init(option value: String?) throws(CLIError) {
        guard let value else {
            url = URL(fileURLWithPath: Self.defaultDirectory)
            return
        }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError("The store path is empty; pass --store DIR with a directory name, or leave --store out to use ./\(Self.defaultDirectory).",
                           exitCode: .usage)
        }
        url = URL(fileURLWithPath: value)
    }

    /// Checks the location without changing anything: a missing directory must be creatable
    /// (its parent exists and is writable when `forWriting`); an existing one must be a real
    /// directory owned by this user, closed to others, and a store (or empty).
    ///
    /// - Throws: ``CLIError`` with a sentence naming the directory and what to do.
    func check(forWriting: Bool) throws(CLIError) -> State {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw unusable("it cannot be examined (error \(errno)); check the path") }
            let parent = url.deletingLastPathComponent().path
            var parentInfo = stat()
            guard stat(parent, &parentInfo) == 0, (parentInfo.st_mode & S_IFMT) == S_IFDIR else {
                throw CLIError("The store \(path) cannot be created because its parent directory \(parent) does not exist; create it first or choose another --store directory.",
                               exitCode: .failure)
            }
            if forWriting, access(parent, W_OK | X_OK) != 0 {
                throw CLIError("The store \(path) cannot be created because its parent directory \(parent) is not writable by you; choose another --store directory or make \(parent) writable.",
                               exitCode: .failure)
            }
            return .missing
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: throw unusable("it is a symbolic link; use a real directory for the account store")
        case S_IFDIR: break
        default: throw unusable("it is not a directory; choose another --store location")
        }
        guard info.st_uid == geteuid() else { throw unusable("it belongs to \(UserAccount.spokenName(of: info.st_uid)); use a directory you own") }
        let mode = UInt16(info.st_mode & 0o7777)
        guard mode & 0o077 == 0 else {
            throw CLIError("The store \(path) has mode \(String(mode, radix: 8)), which lets other users in, so it is not used; restrict it with 'chmod 700 \(path)' or choose another --store directory.",
                           exitCode: .failure)
        }
        guard isStoreOrEmpty() else {
            throw unusable("it already holds other files and no account store; choose an empty or new directory for --store")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            guard !forWriting else {
                throw CLIError("The store directory \(path) is not writable by you; make it writable (chmod u+w \(path)) or choose another --store directory.",
                               exitCode: .failure)
            }
            return .readOnly
        }
        return .writable
    }

    /// Empty, a store, or a store that another process is creating right now (only the
    /// files a store starts with, before its database exists).
    private func isStoreOrEmpty() -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return true }
        if names.contains(ReferenceAccountStore.databaseName) { return true }
        let firstFiles: Set<String> = [ReferenceAccountStore.credentialsDirectoryName, "import.lock", CredentialChoice.recordName]
        return names.allSatisfy { firstFiles.contains($0) || ($0.hasPrefix(".handoff-") && $0.hasSuffix(".tmp")) }
    }

    private func unusable(_ reason: String) -> CLIError {
        CLIError("The store \(path) cannot be used: \(reason).", exitCode: .failure)
    }
}
