/// Why the account-metadata store failed. Cases carry no secret and no account data
/// beyond local identifiers.
public enum AccountStoreError: Error, Hashable, Sendable, CustomStringConvertible {
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
    /// The backend failed.
    case failed(StoreFailure)

    /// A secret-free sentence for logs and error details.
    public var description: String {
        switch self {
        case .unsafeLocation(let problem): problem.description
        case .readOnly: "The account store is read-only."
        case .corrupt(let detail): "The account store failed its integrity check (\(detail))."
        case .unsupportedSchema(let version): "The account store uses schema version \(version), which this version does not know."
        case .changedMeanwhile: "The stored accounts changed while the import was running."
        case .linkIDAlreadyStored: "Another stored account already has this account link ID."
        case .accountNotFound(let id): "No stored account has the local ID \(id)."
        case .invalidRecord(let field): "A stored account has an invalid \(field) field."
        case .failed(let failure): "The account store failed: \(failure)."
        }
    }
}

/// Why the credential store failed. Cases never carry credential bytes.
public enum CredentialStoreError: Error, Hashable, Sendable, CustomStringConvertible {
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
    /// The backend failed.
    case failed(StoreFailure)

    /// A secret-free sentence for logs and error details.
    public var description: String {
        switch self {
        case .unsafeLocation(let problem): problem.description
        case .credentialNotFound: "The credential item does not exist."
        case .emptyCredential: "The credential is empty."
        case .credentialTooLarge(let count): "A stored credential has \(count) bytes, more than the store accepts."
        case .keychain(let status): "The Keychain refused the operation (\(KeychainStatusName.describe(status)))."
        case .policyViolation(let violation): violation.description
        case .failed(let failure): "The credential store failed: \(failure)."
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
