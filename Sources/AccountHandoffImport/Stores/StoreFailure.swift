import AccountHandoff

/// A low-level failure of a store's backend, described without any account data or secret.
public struct StoreFailure: Error, Hashable, Sendable {
    /// Which numbering the ``code`` belongs to.
    public enum Domain: String, Hashable, Sendable {
        /// `errno` from a POSIX call.
        case posix
        /// An SQLite (extended) result code.
        case sqlite
        /// An `OSStatus` from the Security framework.
        case keychain
        /// A GLib error code from the Secret Service (libsecret, D-Bus); the operation names its domain.
        case secretService
    }

    /// What the store was doing when it failed, for the failure's sentence.
    public enum Operation: Hashable, Sendable {
        /// A call by its name in code: a system call with the file it acted on
        /// (`fsync(credentials)`), an SQL statement (`COMMIT`), a Keychain or D-Bus function
        /// with the error's domain. The same words in every language, never prose.
        case call(String)
        /// Reading an account's credential: the account changed during every read, so no read
        /// belongs to one version of it.
        case readingCredentialOfChangingAccount
        /// Reading the Secret Service's reply to a D-Bus method (named as in code, for example
        /// `Get(Collection.Locked)`): there was none, or it had the wrong type.
        case readingKeyringReply(method: String)
    }

    /// The operation that failed.
    public let operation: Operation
    /// The code's numbering.
    public let domain: Domain
    /// The backend's code.
    public let code: Int32

    /// Describes a failure.
    /// - Parameters:
    ///   - operation: What the store was doing.
    ///   - domain: The code's numbering.
    ///   - code: The backend's code.
    public init(_ operation: Operation, domain: Domain, code: Int32) {
        self.operation = operation
        self.domain = domain
        self.code = code
    }

    /// Describes a failed call, named as in code (``Operation/call(_:)``).
    /// - Parameters:
    ///   - operation: The call's name, for example `"fsync(credentials)"` or `"COMMIT"`.
    ///   - domain: The code's numbering.
    ///   - code: The backend's code.
    public init(operation: String, domain: Domain, code: Int32) {
        self.init(.call(operation), domain: domain, code: code)
    }
}

/// Why a store's location on disk is not safe to hold account data.
public enum StoreLocationProblem: Hashable, Sendable, CustomStringConvertible {
    /// The path is a symbolic link; stores never follow links.
    case symbolicLink(path: String)
    /// A directory was expected.
    case notADirectory(path: String)
    /// A regular file was expected (not a directory, FIFO, socket or device).
    case notARegularFile(path: String)
    /// Group or others have permissions on the path; the mode is reported.
    case permissionsTooOpen(path: String, mode: UInt16)
    /// The path belongs to another user.
    case ownedByAnotherUser(path: String, owner: UInt32)
    /// The parent directory of the store does not exist.
    case missingParent(path: String)

    /// A whole sentence naming the path and what is wrong, in English.
    public var description: String { sentence(in: .english) }

    /// A whole sentence naming the path and what is wrong.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .symbolicLink(let path): sentenceCatalog.sentence("storeLocation.symbolicLink", .text(path), in: language)
        case .notADirectory(let path): sentenceCatalog.sentence("storeLocation.notADirectory", .text(path), in: language)
        case .notARegularFile(let path): sentenceCatalog.sentence("storeLocation.notARegularFile", .text(path), in: language)
        case .permissionsTooOpen(let path, let mode):
            sentenceCatalog.sentence("storeLocation.permissionsTooOpen", .text(path), .text(String(mode, radix: 8)), in: language)
        case .ownedByAnotherUser(let path, 0): sentenceCatalog.sentence("storeLocation.ownedByRoot", .text(path), in: language)
        case .ownedByAnotherUser(let path, let owner):
            sentenceCatalog.sentence("storeLocation.ownedByAnotherUser", .text(path), .number(owner), in: language)
        case .missingParent(let path): sentenceCatalog.sentence("storeLocation.missingParent", .text(path), in: language)
        }
    }
}
