import AccountHandoff

/// A Keychain item policy breaks a rule from the customer's keychain notes. Each case names
/// the rule; none carries a secret.
public enum KeychainPolicyViolation: Error, Hashable, Sendable, TranslatedSentence {
    /// Which query attribute an unscoped delete lacks.
    public enum ScopeAttribute: String, Hashable, Sendable {
        case service, account
    }

    /// Synchronizable together with a `ThisDeviceOnly` accessibility: `SecItemAdd` fails
    /// with `errSecParam` and nothing is stored.
    case synchronizableWithThisDeviceOnly(KeychainAccessibility)
    /// Synchronizable in the receiver's device-bound namespace: an imported password must
    /// never leave the device through iCloud Keychain.
    case synchronizableInDeviceBoundNamespace
    /// An access group without the ten-character Team ID prefix (`A1B2C3D4E5.`): fails with
    /// `errSecMissingEntitlement` (-34018) on iOS 13 and later.
    case accessGroupWithoutTeamIDPrefix(String)
    /// An access group on macOS without the data-protection keychain: macOS ignores the
    /// group silently and writes to the file-based keychain.
    case accessGroupWithoutDataProtectionKeychainOnMacOS(String)
    /// An app group (`group.` prefix) used as a keychain access group on macOS, where app
    /// groups cannot act as keychain groups.
    case appGroupAsKeychainGroupOnMacOS(String)
    /// A macOS item outside the data-protection keychain (the file-based keychain is on the
    /// road to deprecation and has no access groups).
    case fileBasedKeychainOnMacOS
    /// A delete without service or account would remove more items than intended, possibly a
    /// sibling app's.
    case unscopedDelete(missing: [ScopeAttribute])
    /// The service namespace is not a valid reverse-DNS name with a version.
    case invalidServiceNamespace(String)
    /// The policy was made for another platform than the one the code runs on.
    case platformMismatch(policy: KeychainPlatform, running: KeychainPlatform)

    /// A stable rule identifier, e.g. `keychain.sync-with-this-device-only`.
    public var rule: String {
        switch self {
        case .synchronizableWithThisDeviceOnly: "keychain.sync-with-this-device-only"
        case .synchronizableInDeviceBoundNamespace: "keychain.sync-in-device-bound-namespace"
        case .accessGroupWithoutTeamIDPrefix: "keychain.access-group-without-team-id"
        case .accessGroupWithoutDataProtectionKeychainOnMacOS: "keychain.macos-access-group-without-data-protection"
        case .appGroupAsKeychainGroupOnMacOS: "keychain.macos-app-group-as-keychain-group"
        case .fileBasedKeychainOnMacOS: "keychain.macos-file-based-keychain"
        case .unscopedDelete: "keychain.unscoped-delete"
        case .invalidServiceNamespace: "keychain.invalid-service-namespace"
        case .platformMismatch: "keychain.platform-mismatch"
        }
    }

    /// A whole sentence naming the rule and the fix.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .synchronizableWithThisDeviceOnly(let accessibility):
            sentenceCatalog.sentence("keychainPolicy.synchronizableWithThisDeviceOnly", .text(accessibility.rawValue), .text(rule), in: language)
        case .synchronizableInDeviceBoundNamespace:
            sentenceCatalog.sentence("keychainPolicy.synchronizableInDeviceBoundNamespace", .text(rule), in: language)
        case .accessGroupWithoutTeamIDPrefix(let group):
            sentenceCatalog.sentence("keychainPolicy.accessGroupWithoutTeamIDPrefix", .text(group), .text(rule), in: language)
        case .accessGroupWithoutDataProtectionKeychainOnMacOS(let group):
            sentenceCatalog.sentence("keychainPolicy.accessGroupWithoutDataProtectionKeychainOnMacOS", .text(group), .text(rule), in: language)
        case .appGroupAsKeychainGroupOnMacOS(let group):
            sentenceCatalog.sentence("keychainPolicy.appGroupAsKeychainGroupOnMacOS", .text(group), .text(rule), in: language)
        case .fileBasedKeychainOnMacOS:
            sentenceCatalog.sentence("keychainPolicy.fileBasedKeychainOnMacOS", .text(rule), in: language)
        case .unscopedDelete(let missing):
            sentenceCatalog.sentence("keychainPolicy.unscopedDelete", .text(missing.map(\.rawValue).joined(separator: sentenceCatalog.sentence("keychainPolicy.listJoiner", in: language))), .text(rule), in: language)
        case .invalidServiceNamespace(let base):
            sentenceCatalog.sentence("keychainPolicy.invalidServiceNamespace", .text(base), .text(rule), in: language)
        case .platformMismatch(let policy, let running):
            sentenceCatalog.sentence("keychainPolicy.platformMismatch", .text(policy.rawValue), .text(running.rawValue), .text(rule), in: language)
        }
    }
}
