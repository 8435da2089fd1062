#if canImport(Security)
import AccountHandoff
import Foundation
import Security

/// The credential store of Apple platforms: generic-password Keychain items described by a
/// ``KeychainItemPolicy``, with staging.
///
/// - Active item: service `<namespace>.v<N>`, account = the local ``LocalAccountID``.
/// - Staged item: service `<namespace>.v<N>.staging`, account `staged-<uuid>`, written with
///   the same accessibility, group and data-protection settings as an active item.
/// - Activation renames the staged item to the active service and account with
///   `SecItemUpdate`, so the password is not read back into process memory. When an active
///   item exists, it is deleted first; a crash between that delete and the rename leaves the
///   committed staged item in place, and ``ImportCoordinator/recover()`` renames it.
///
/// Status handling: a duplicate on add becomes an update; not-found on delete is success;
/// every other status is ``CredentialStoreError/keychain(status:)`` carrying the `OSStatus`.
///
/// - Warning: Apps that read the password directly with `SecItemCopyMatching` (rather than
///   through ``credential(for:)``) must call ``ImportCoordinator/recover()`` at start, before
///   reading, so that an activation interrupted by a crash is finished first.
public struct KeychainCredentialStore: CredentialStore {
    /// The item policy every query follows.
    public let policy: KeychainItemPolicy

    /// A store for `policy`.
    ///
    /// - Throws: ``CredentialStoreError/policyViolation(_:)`` with
    ///   ``KeychainPolicyViolation/platformMismatch(policy:running:)`` when the policy was
    ///   made for another platform.
    public init(policy: KeychainItemPolicy) throws(CredentialStoreError) {
        guard policy.platform == KeychainPlatform.current else {
            throw .policyViolation(.platformMismatch(policy: policy.platform, running: KeychainPlatform.current))
        }
        self.policy = policy
    }

    /// Reads the staging namespace, which surfaces a locked device (-25308) or a missing
    /// entitlement (-34018) before the password travels.
    public func checkCredentialsWritable() throws(CredentialStoreError) {
        var query = Self.dictionary(policy.allStagedItems)
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw .keychain(status: status) }
    }

    /// Adds the credential as a new staged item; the bytes are lent to Security from guarded memory.
    public func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential {
        guard credential.count > 0 else { throw .emptyCredential }
        guard let staged = StagedCredential(name: "staged-\(UUID().uuidString.lowercased())") else {
            preconditionFailure("a UUID-based staged name is always valid")
        }
        try addOrUpdate(policy.stagedItem(staged), credential)
        return staged
    }

    /// Renames the staged item to the account's active item, replacing an existing one.
    public func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        let source = Self.dictionary(policy.stagedItem(staged)) as CFDictionary
        let target = policy.activeItem(for: account)
        let rename: [String: Any] = [
            kSecAttrService as String: policy.namespace.activeService,
            kSecAttrAccount as String: account.rawValue,
        ]
        var status = SecItemUpdate(source, rename as CFDictionary)
        if status == errSecDuplicateItem {
            try delete(target)
            status = SecItemUpdate(source, rename as CFDictionary)
        }
        switch status {
        case errSecSuccess: return
        case errSecItemNotFound: throw .credentialNotFound
        default: throw .keychain(status: status)
        }
    }

    /// Deletes a staged item; a missing one is success.
    public func discard(_ staged: StagedCredential) throws(CredentialStoreError) {
        try delete(policy.stagedItem(staged))
    }

    /// Every staged item of the namespace.
    public func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] {
        try accounts(in: policy.allStagedItems).compactMap { StagedCredential(name: $0) }
    }

    /// Every account with an active item in the namespace.
    public func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] {
        try accounts(in: policy.allActiveItems).compactMap { LocalAccountID(rawValue: $0) }
    }

    /// Deletes the active item of `account`; a missing one is success.
    public func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError) {
        try delete(policy.activeItem(for: account))
    }

    /// The active credential of `account`, copied into guarded memory.
    ///
    /// - Warning: Security returns the bytes as a `CFData` in ordinary memory; that copy is
    ///   released, not wiped, when this call returns.
    public func credential(for account: LocalAccountID) throws(CredentialStoreError) -> SecretBytes {
        var query = Self.dictionary(policy.activeItem(for: account))
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { throw .credentialNotFound }
        guard status == errSecSuccess else { throw .keychain(status: status) }
        guard let data = result as? Data else { throw .keychain(status: errSecDecode) }
        do { return try GuardedCopy.make(data) } catch {
            throw .failed(StoreFailure(operation: "guarded allocation", domain: .posix, code: ENOMEM))
        }
    }

    // MARK: SecItem calls

    private func addOrUpdate(_ item: KeychainItemQuery, _ credential: SecretBytes) throws(CredentialStoreError) {
        let status: OSStatus = credential.withUnsafeBytes { bytes in
            // Data(bytesNoCopy:) lends the guarded buffer for the duration of the call; Security
            // copies the bytes into the keychain.
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count,
                            deallocator: .none)
            var add = Self.dictionary(item)
            add[kSecAttrAccessible as String] = Self.constant(for: item.accessibility)
            add[kSecValueData as String] = data
            let added = SecItemAdd(add as CFDictionary, nil)
            guard added == errSecDuplicateItem else { return added }
            let changes: [String: Any] = [kSecValueData as String: data]
            return SecItemUpdate(Self.dictionary(item) as CFDictionary, changes as CFDictionary)
        }
        guard status == errSecSuccess else { throw .keychain(status: status) }
    }

    private func delete(_ item: KeychainItemQuery) throws(CredentialStoreError) {
        let scoped: KeychainItemQuery
        do { scoped = try policy.deleteQuery(service: item.service, account: item.account) } catch {
            throw .policyViolation(error)
        }
        let status = SecItemDelete(Self.dictionary(scoped) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw .keychain(status: status) }
    }

    private func accounts(in query: KeychainItemQuery) throws(CredentialStoreError) -> [String] {
        var dictionary = Self.dictionary(query)
        dictionary[kSecReturnAttributes as String] = true
        dictionary[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw .keychain(status: status) }
        let items = result as? [[String: Any]] ?? []
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// The Security dictionary of a policy query. `kSecAttrSynchronizable` is always stated, so
    /// synchronizable items of the same service are never matched, updated or deleted.
    static func dictionary(_ item: KeychainItemQuery) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrSynchronizable as String: item.synchronizable ? kCFBooleanTrue as Any : kCFBooleanFalse as Any,
        ]
        if let service = item.service { query[kSecAttrService as String] = service }
        if let account = item.account { query[kSecAttrAccount as String] = account }
        if let group = item.accessGroup { query[kSecAttrAccessGroup as String] = group }
        if item.usesDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
        return query
    }

    static func constant(for accessibility: KeychainAccessibility) -> CFString {
        switch accessibility {
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        }
    }
}
#endif
