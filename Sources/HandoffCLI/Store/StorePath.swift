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
            throw CLIError(sentenceCatalog.sentence("storePath.empty", .text(Self.defaultDirectory), in: .cli),
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
            guard errno == ENOENT else { throw unusable(sentenceCatalog.sentence("storePath.cannotExamine", .number(errno), in: .cli)) }
            let parent = url.deletingLastPathComponent().path
            var parentInfo = stat()
            guard stat(parent, &parentInfo) == 0, (parentInfo.st_mode & S_IFMT) == S_IFDIR else {
                throw CLIError(sentenceCatalog.sentence("storePath.noParent", .text(path), .text(parent), in: .cli),
                               exitCode: .failure)
            }
            if forWriting, access(parent, W_OK | X_OK) != 0 {
                throw CLIError(sentenceCatalog.sentence("storePath.parentNotWritable", .text(path), .text(parent), in: .cli),
                               exitCode: .failure)
            }
            return .missing
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: throw unusable(sentenceCatalog.sentence("storePath.symlink", in: .cli))
        case S_IFDIR: break
        default: throw unusable(sentenceCatalog.sentence("storePath.notDirectory", in: .cli))
        }
        guard info.st_uid == geteuid() else { throw unusable(sentenceCatalog.sentence("storePath.otherOwner", .text(UserAccount.spokenName(of: info.st_uid)), in: .cli)) }
        let mode = UInt16(info.st_mode & 0o7777)
        guard mode & 0o077 == 0 else {
            throw CLIError(sentenceCatalog.sentence("storePath.openMode", .text(path), .text(String(mode, radix: 8)), in: .cli),
                           exitCode: .failure)
        }
        guard isStoreOrEmpty() else {
            throw unusable(sentenceCatalog.sentence("storePath.otherFiles", in: .cli))
        }
        guard access(path, W_OK | X_OK) == 0 else {
            guard !forWriting else {
                throw CLIError(sentenceCatalog.sentence("storePath.notWritable", .text(path), in: .cli),
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
        CLIError(sentenceCatalog.sentence("storePath.unusable", .text(path), .text(reason), in: .cli), exitCode: .failure)
    }
}
