/// A Keychain item policy breaks a rule from the customer's keychain notes. Each case names
/// the rule; none carries a secret.
public enum KeychainPolicyViolation: Error, Hashable, Sendable, CustomStringConvertible {
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
    public var description: String {
        switch self {
        case .synchronizableWithThisDeviceOnly(let accessibility):
            "A synchronizable item cannot use the ThisDeviceOnly class \(accessibility.rawValue) (rule \(rule)); keep the item device-bound and not synchronizable."
        case .synchronizableInDeviceBoundNamespace:
            "Imported passwords stay on this device, so their namespace is never synchronizable (rule \(rule)); turn synchronization off."
        case .accessGroupWithoutTeamIDPrefix(let group):
            "The access group \(group) lacks the ten-character Team ID prefix (rule \(rule)); use the full TEAMID.name string from the signed entitlements."
        case .accessGroupWithoutDataProtectionKeychainOnMacOS(let group):
            "On macOS the access group \(group) is ignored outside the data-protection keychain (rule \(rule)); set kSecUseDataProtectionKeychain."
        case .appGroupAsKeychainGroupOnMacOS(let group):
            "On macOS the app group \(group) cannot be a keychain access group (rule \(rule)); use a Keychain Sharing group with the Team ID prefix."
        case .fileBasedKeychainOnMacOS:
            "On macOS the item must live in the data-protection keychain (rule \(rule)); set kSecUseDataProtectionKeychain."
        case .unscopedDelete(let missing):
            "A Keychain delete without \(missing.map(\.rawValue).joined(separator: " and ")) would remove unrelated items (rule \(rule)); name both service and account."
        case .invalidServiceNamespace(let base):
            "The Keychain service namespace \(base) is not a valid reverse-DNS name with a version of 1 or more (rule \(rule)); use a name of letters, digits, dots, hyphens and underscores such as com.example.mail.account-password, and a version of 1 or more."
        case .platformMismatch(let policy, let running):
            "The Keychain policy was made for \(policy.rawValue) but runs on \(running.rawValue) (rule \(rule)); build it with KeychainPlatform.current."
        }
    }
}
