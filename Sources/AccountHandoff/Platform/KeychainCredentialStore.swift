#if canImport(Security)
import Foundation
import Security

/// Stores a received credential where the receiving app's own passwords live on Apple
/// platforms: a generic-password item in the data-protection Keychain, bound to this device
/// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`), never synchronizable, in an explicit
/// access group when one is given.
///
/// The bytes go from guarded memory straight into the item's data; nothing is copied into a
/// `String`. An existing item is never replaced silently.
public struct KeychainCredentialStore: Sendable {
    /// The Keychain service name the app uses for account passwords.
    public let service: String
    /// A full access group (`TEAMID.group.name`), or `nil` for the app's default group.
    public let accessGroup: String?

    /// Creates a store for `service`, optionally in `accessGroup`.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// Why storing failed; carries only the OSStatus, never the secret.
    public enum StoreError: Error, Hashable, Sendable {
        /// An item for this account already exists; ask the person to replace or keep it.
        case itemExists
        /// The Keychain refused the operation with this status (e.g. -34018, missing entitlement).
        case keychainStatus(Int32)
    }

    /// Adds the credential as a new, device-bound item for `account` (the app's local account
    /// key). Fails with ``StoreError/itemExists`` rather than overwriting.
    public func add(_ credential: SecretBytes, account: String) throws(StoreError) {
        var query = baseQuery(account: account)
        query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = credential.withUnsafeBytes { bytes -> OSStatus in
            // Data(bytesNoCopy:) hands the guarded buffer to Security without a Swift copy.
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!),
                            count: bytes.count, deallocator: .none)
            query[kSecValueData as String] = data
            return SecItemAdd(query as CFDictionary, nil)
        }
        switch status {
        case errSecSuccess: return
        case errSecDuplicateItem: throw .itemExists
        default: throw .keychainStatus(status)
        }
    }

    /// Deletes the item for `account`; a missing item counts as success.
    public func delete(account: String) throws(StoreError) {
        let status = SecItemDelete(baseQuery(account: account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw .keychainStatus(status) }
    }

    private func baseQuery(account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecAttrSynchronizable as String: kCFBooleanFalse as Any,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }
}
#endif
