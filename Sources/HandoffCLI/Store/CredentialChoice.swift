#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import Foundation

/// Where a store keeps its passwords: the desktop keyring (Secret Service) by default, or
/// 0600 files in the store directory with `--credentials files`. A store keeps the choice it
/// was created with, recorded in its `credential-store` file (`keyring <namespace>` or
/// `files`); a store from before that file existed keeps files.
enum CredentialChoice: Equatable {
    case files
    case keyring(namespace: String)

    /// The file in the store directory that records the choice.
    static let recordName = "credential-store"
    /// The `--credentials` values.
    static let optionValues = ["keyring", "files"]

    var name: String {
        switch self {
        case .files: "files"
        case .keyring: "keyring"
        }
    }

    /// The credential store for `metadata` (the reference store itself for files).
    func store(_ metadata: ReferenceAccountStore) -> any CredentialStore {
        switch self {
        case .files: metadata
        case .keyring(let namespace): SecretServiceCredentialStore(namespace: namespace)
        }
    }

    /// `--credentials keyring|files`, or `nil` when not given.
    static func requested(_ parsed: ParsedArguments, command: String) throws(CLIError) -> String? {
        guard let value = parsed.value("--credentials") else { return nil }
        guard optionValues.contains(value) else { throw .usage("The option --credentials takes keyring or files.", command: command) }
        return value
    }

    /// What the store in `directory` recorded; `nil` for a store without a record (a new
    /// store, or one from before records: `hasDatabase` then says files).
    static func recorded(in directory: StorePath) throws(CLIError) -> CredentialChoice? {
        let path = directory.path + "/" + recordName
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let hasDatabase = FileManager.default.fileExists(atPath: directory.path + "/" + ReferenceAccountStore.databaseName)
            return hasDatabase ? .files : nil
        }
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_size < 512, let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("The store \(directory.path) cannot be used: its \(recordName) file is not a small regular file; restore it or choose another --store directory.",
                           exitCode: .failure)
        }
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        switch words.count {
        case 1 where words[0] == "files": return .files
        case 2 where words[0] == "keyring" && SecretServiceCredentialStore.isValidNamespace(words[1]): return .keyring(namespace: words[1])
        default:
            throw CLIError("The store \(directory.path) cannot be used: its \(recordName) file names no known place for passwords; restore it or choose another --store directory.",
                           exitCode: .failure)
        }
    }

    /// Records the choice in a new store (mode 0600, never through a link), and returns the
    /// choice the store keeps: when another process created the same store at the same moment
    /// and recorded first, its record holds (and an option that contradicts it is refused as
    /// for any existing store).
    func record(in directory: StorePath, requested: String?) throws(CLIError) -> CredentialChoice {
        let text: String = switch self {
        case .files: "files\n"
        case .keyring(let namespace): "keyring \(namespace)\n"
        }
        do {
            try SafeOutputFile.write(Array(text.utf8), to: directory.path + "/" + Self.recordName, existing: .refuse)
            return self
        } catch .alreadyExists {
            guard let theirs = try Self.recorded(in: directory) else {
                throw CLIError("The store \(directory.path) was being created by another process at the same moment and is not finished; try again.", exitCode: .failure)
            }
            return try Self.resolve(requested: requested, recorded: theirs, directory: directory)
        } catch {
            throw CLIError("The store \(directory.path) cannot record where it keeps passwords: \(error.description)", exitCode: .failure)
        }
    }

    /// The choice for the store: the recorded one (an option that contradicts it is refused),
    /// or for a new store the option's, the keyring by default.
    static func resolve(requested: String?, recorded: CredentialChoice?, directory: StorePath) throws(CLIError) -> CredentialChoice {
        if let recorded {
            if let requested, requested != recorded.name {
                throw CLIError("The store \(directory.path) keeps its passwords in \(recorded == .files ? "files" : "the keyring"), not in \(requested == "files" ? "files" : "the keyring"); leave out --credentials or pass --credentials \(recorded.name).",
                               exitCode: .usage)
            }
            return recorded
        }
        if requested == "files" { return .files }
        return .keyring(namespace: "handoff-\(UUID().uuidString.lowercased())")
    }

    /// How to get a keyring on a machine without a desktop: one started inside a private
    /// session bus, which creates (or unlocks) its login collection with the password it reads.
    static let headlessKeyring = "without a desktop, run the commands inside 'dbus-run-session -- sh' after starting a keyring there with 'gnome-keyring-daemon --unlock --components=secrets' (it reads a keyring password from standard input)"

    /// The sentence for a keyring that cannot take passwords now; `newStore` adds the way out
    /// through files, which only a new store has.
    static func unreachable(_ error: CredentialStoreError, directory: StorePath, newStore: Bool) -> String {
        let files = newStore ? "; or pass --credentials files to keep the passwords in files in the store directory" : ""
        switch error {
        case .keyringLocked:
            // A keyring daemon that stopped and was started again by D-Bus starts locked.
            return "The keyring is locked, so it cannot keep the passwords of the store \(directory.path); unlock it in your keyring manager (GNOME Keyring/KWallet) and try again (\(headlessKeyring))\(files)."
        case .sessionBusUnavailable:
            return "No keyring can be reached for the store \(directory.path) because there is no D-Bus session bus; log in to a desktop session and try again (\(headlessKeyring))\(files)."
        case .secretServiceUnavailable:
            return "No keyring (GNOME Keyring, KWallet or KeePassXC) answers on the D-Bus session bus for the store \(directory.path): none was started, or its daemon stopped; start one and try again (\(headlessKeyring))\(files)."
        case .keyringHasNoDefaultCollection:
            return "The keyring has no default collection for the passwords of the store \(directory.path); create one in your keyring manager (for example GNOME Passwords and Keys) and try again (\(headlessKeyring); it creates the collection)\(files)."
        default:
            return "The keyring cannot keep the passwords of the store \(directory.path) (\(error.description.dropLast())); fix it and try again\(files)."
        }
    }
}
