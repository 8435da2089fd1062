import AccountHandoff
import Foundation

/// Why the account-metadata store failed. Cases carry no secret and no account data
/// beyond local identifiers.
public enum AccountStoreError: Error, Hashable, Sendable, TranslatedSentence {
    /// The store's location is unsafe (link, wrong file type, open permissions, other owner).
    case unsafeLocation(StoreLocationProblem)
    /// The store can be read but not written (read-only file system or file).
    case readOnly
    /// The store failed its integrity check; the check's first message is reported.
    case corrupt(String)
    /// The store was written by a newer schema version than this code knows.
    case unsupportedSchema(Int)
    /// The commit's precondition failed: the accounts changed after the person chose.
    case changedMeanwhile
    /// Another account already has this link ID.
    case linkIDAlreadyStored
    /// No account has this local ID.
    case accountNotFound(LocalAccountID)
    /// A stored row does not form valid account metadata; the field is named.
    case invalidRecord(String)
    /// Another process held the store's import lock exclusively (a recovery, or a stuck
    /// process) for as long as the store waits; the wait in seconds is reported.
    case lockedByAnotherProcess(waitedSeconds: Int)
    /// The backend failed.
    case failed(StoreFailure)

    /// A secret-free sentence for logs and error details: what happened and what to do.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .unsafeLocation(let problem): problem.sentence(in: language)
        case .lockedByAnotherProcess(let seconds):
            sentenceCatalog.sentence("accountStore.lockedByAnotherProcess", .number(seconds), in: language)
        case .readOnly: sentenceCatalog.sentence("accountStore.readOnly", in: language)
        case .corrupt(let detail): sentenceCatalog.sentence("accountStore.corrupt", .text(detail), in: language)
        case .unsupportedSchema(let version): sentenceCatalog.sentence("accountStore.unsupportedSchema", .number(version), in: language)
        case .changedMeanwhile: sentenceCatalog.sentence("accountStore.changedMeanwhile", in: language)
        case .linkIDAlreadyStored: sentenceCatalog.sentence("accountStore.linkIDAlreadyStored", in: language)
        case .accountNotFound(let id): sentenceCatalog.sentence("accountStore.accountNotFound", .text(id.description), in: language)
        case .invalidRecord(let field): sentenceCatalog.sentence("accountStore.invalidRecord", .text(field), in: language)
        case .failed(let failure):
            sentenceCatalog.sentence("accountStore.failed", .text(failure.operation.words(in: language)), .text(failure.cause(in: language)),
                                     .text(failure.nextStep(in: language)), in: language)
        }
    }
}

/// Why the credential store failed. Cases never carry credential bytes.
public enum CredentialStoreError: Error, Hashable, Sendable, TranslatedSentence {
    /// The store's location is unsafe (link, wrong file type, open permissions, other owner).
    case unsafeLocation(StoreLocationProblem)
    /// No credential item with this name exists.
    case credentialNotFound
    /// A credential is empty; nothing is stored.
    case emptyCredential
    /// A stored credential is larger than the store accepts; the size is reported.
    case credentialTooLarge(byteCount: Int)
    /// The Keychain returned this `OSStatus` (for example -34018, missing entitlement).
    case keychain(status: Int32)
    /// The Keychain item policy breaks a rule.
    case policyViolation(KeychainPolicyViolation)
    /// No D-Bus session bus is reachable, so no Secret Service (Linux keyring) can be asked.
    case sessionBusUnavailable
    /// The session bus works but no Secret Service provider (GNOME Keyring, KWallet,
    /// KeePassXC) answers on it.
    case secretServiceUnavailable
    /// The Secret Service's default collection (the keyring passwords go to) is locked.
    case keyringLocked
    /// The Secret Service has no default collection to store passwords in.
    case keyringHasNoDefaultCollection
    /// The account store, read to find the credential's account, failed (a store that keeps
    /// both, such as the reference store).
    case accountStore(AccountStoreError)
    /// The backend failed.
    case failed(StoreFailure)

    /// A secret-free sentence for logs and error details: what happened and what to do.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .unsafeLocation(let problem): problem.sentence(in: language)
        case .accountStore(let error): error.sentence(in: language)
        case .credentialNotFound: sentenceCatalog.sentence("credentialStore.credentialNotFound", in: language)
        case .emptyCredential: sentenceCatalog.sentence("credentialStore.emptyCredential", in: language)
        case .credentialTooLarge(let count): sentenceCatalog.sentence("credentialStore.credentialTooLarge", .number(count), in: language)
        case .keychain(let status):
            sentenceCatalog.sentence("credentialStore.keychain", .text(KeychainStatusName.meaning(status, in: language)),
                                     .text(KeychainStatusName.describe(status)), in: language)
        case .policyViolation(let violation): violation.sentence(in: language)
        case .sessionBusUnavailable: sentenceCatalog.sentence("credentialStore.sessionBusUnavailable", in: language)
        case .secretServiceUnavailable: sentenceCatalog.sentence("credentialStore.secretServiceUnavailable", in: language)
        case .keyringLocked: sentenceCatalog.sentence("credentialStore.keyringLocked", in: language)
        case .keyringHasNoDefaultCollection: sentenceCatalog.sentence("credentialStore.keyringHasNoDefaultCollection", in: language)
        case .failed(let failure):
            sentenceCatalog.sentence("credentialStore.failed", .text(failure.operation.words(in: language)), .text(failure.cause(in: language)),
                                     .text(failure.nextStep(in: language)), in: language)
        }
    }
}

/// Names for the Security framework statuses the keychain notes discuss.
public enum KeychainStatusName {
    /// `name (code)` for a known status, `OSStatus code` otherwise.
    public static func describe(_ status: Int32) -> String {
        let names: [Int32: String] = [
            -25299: "errSecDuplicateItem", -25300: "errSecItemNotFound", -34018: "errSecMissingEntitlement",
            -25308: "errSecInteractionNotAllowed", -50: "errSecParam", -128: "errSecUserCanceled",
        ]
        if let name = names[status] { return "\(name), \(status)" }
        return "OSStatus \(status)"
    }
}
