import Foundation

/// Why the account-metadata store failed. Cases carry no secret and no account data
/// beyond local identifiers.
public enum AccountStoreError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
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
    public var description: String {
        switch self {
        case .unsafeLocation(let problem): problem.description
        case .lockedByAnotherProcess(let seconds):
            "Another process kept the account store locked for \(seconds) s (an import or recovery still running, or a stuck process); let it finish or end it, then try again."
        case .readOnly: "The account store is read-only; make it writable and try again."
        case .corrupt(let detail): "The account store failed its integrity check (\(detail)); restore it from a backup."
        case .unsupportedSchema(let version):
            "The account store uses schema version \(version), which this version does not know; update the app."
        case .changedMeanwhile: "The stored accounts changed while the import was running; check them and try again."
        case .linkIDAlreadyStored: "Another stored account already has this account link ID; replace it instead of adding one."
        case .accountNotFound(let id): "No stored account has the local ID \(id); list the accounts and try again."
        case .invalidRecord(let field): "A stored account has an invalid \(field) field; restore the store from a backup."
        case .failed(let failure): "The account store could not complete the operation \(failure.operation): \(failure.cause). \(failure.nextStep)"
        }
    }

    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

/// Why the credential store failed. Cases never carry credential bytes.
public enum CredentialStoreError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
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
    /// The backend failed.
    case failed(StoreFailure)

    /// A secret-free sentence for logs and error details: what happened and what to do.
    public var description: String {
        switch self {
        case .unsafeLocation(let problem): problem.description
        case .credentialNotFound: "The credential item does not exist; import the account again."
        case .emptyCredential: "The credential is empty; send a password that is not empty."
        case .credentialTooLarge(let count): "A stored credential has \(count) bytes, more than the store accepts; import the account again."
        case .keychain(let status): "The Keychain refused the operation: \(KeychainStatusName.meaning(status)) (\(KeychainStatusName.describe(status))); check the app's Keychain settings and that the device is unlocked, then try again."
        case .policyViolation(let violation): violation.description
        case .sessionBusUnavailable:
            "No D-Bus session bus is reachable, so the keyring cannot be used. Log in to a desktop session (or start one with dbus-run-session) and try again."
        case .secretServiceUnavailable:
            "No keyring answers on the D-Bus session bus. Start or install a Secret Service keyring (GNOME Keyring, KWallet or KeePassXC) and try again."
        case .keyringLocked: "The keyring is locked. Unlock your keyring (GNOME Keyring/KWallet) and try again."
        case .keyringHasNoDefaultCollection:
            "The keyring has no default collection to keep passwords in. Create one (for example with GNOME Passwords and Keys) and try again."
        case .failed(let failure): "The credential store could not complete the operation \(failure.operation): \(failure.cause). \(failure.nextStep)"
        }
    }

    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
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
