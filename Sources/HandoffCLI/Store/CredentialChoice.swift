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
        guard optionValues.contains(value) else { throw .usage(sentenceCatalog.sentence("credentials.usage", in: .cli), command: command) }
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
            throw CLIError(sentenceCatalog.sentence("credentials.recordNotRegular", .text(directory.path), .text(recordName), in: .cli),
                           exitCode: .failure)
        }
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        switch words.count {
        case 1 where words[0] == "files": return .files
        case 2 where words[0] == "keyring" && SecretServiceCredentialStore.isValidNamespace(words[1]): return .keyring(namespace: words[1])
        default:
            throw CLIError(sentenceCatalog.sentence("credentials.recordUnknown", .text(directory.path), .text(recordName), in: .cli),
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
                throw CLIError(sentenceCatalog.sentence("credentials.beingCreated", .text(directory.path), in: .cli), exitCode: .failure)
            }
            return try Self.resolve(requested: requested, recorded: theirs, directory: directory)
        } catch {
            throw CLIError(sentenceCatalog.sentence("credentials.cannotRecord", .text(directory.path), .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
    }

    /// The choice for the store: the recorded one (an option that contradicts it is refused),
    /// or for a new store the option's, the keyring by default.
    static func resolve(requested: String?, recorded: CredentialChoice?, directory: StorePath) throws(CLIError) -> CredentialChoice {
        if let recorded {
            if let requested, requested != recorded.name {
                let files = sentenceCatalog.sentence("credentials.place.files", in: .cli)
                let keyring = sentenceCatalog.sentence("credentials.place.keyring", in: .cli)
                throw CLIError(sentenceCatalog.sentence("credentials.contradicts", .text(directory.path), .text(recorded == .files ? files : keyring),
                                                        .text(requested == "files" ? files : keyring), .text(recorded.name), in: .cli),
                               exitCode: .usage)
            }
            return recorded
        }
        if requested == "files" { return .files }
        return .keyring(namespace: "handoff-\(UUID().uuidString.lowercased())")
    }

    /// How to get a keyring on a machine without a desktop: one started inside a private
    /// session bus, which creates (or unlocks) its login collection with the password it reads.
    static let headlessKeyring = sentenceCatalog.sentence("credentials.headless", in: .cli)

    /// The sentence for a keyring that cannot take passwords now; `newStore` adds the way out
    /// through files, which only a new store has.
    static func unreachable(_ error: CredentialStoreError, directory: StorePath, newStore: Bool) -> String {
        let files = SentenceArgument.text(newStore ? sentenceCatalog.sentence("credentials.filesWayOut", in: .cli) : "")
        let store = SentenceArgument.text(directory.path), headless = SentenceArgument.text(headlessKeyring)
        switch error {
        case .keyringLocked:
            // A keyring daemon that stopped and was started again by D-Bus starts locked.
            return sentenceCatalog.sentence("keyring.locked", store, headless, files, in: .cli)
        case .sessionBusUnavailable:
            return sentenceCatalog.sentence("keyring.noSessionBus", store, headless, files, in: .cli)
        case .secretServiceUnavailable:
            return sentenceCatalog.sentence("keyring.noService", store, headless, files, in: .cli)
        case .keyringHasNoDefaultCollection:
            return sentenceCatalog.sentence("keyring.noDefaultCollection", store, headless, files, in: .cli)
        default:
            return sentenceCatalog.sentence("keyring.other", store, .text(String(error.sentence(in: .cli).dropLast())), files, in: .cli)
        }
    }
}
