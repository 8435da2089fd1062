/// The Keychain item the receiver writes for an imported credential, as a pure value that can
/// be checked on every platform.
///
/// A generic-password item in a versioned service namespace, with `kSecAttrAccount` set to
/// the local ``LocalAccountID``, accessible after first unlock on this device only, never
/// synchronizable, in the data-protection keychain on macOS, and in an explicit access group
/// only when the item is shared (then the full Team-ID-prefixed group).
///
/// Every initialiser validates; a policy value that exists obeys every rule.
public struct KeychainItemPolicy: Hashable, Sendable {
    /// The service namespace.
    public let namespace: KeychainServiceNamespace
    /// `kSecAttrAccessible` of added items.
    public let accessibility: KeychainAccessibility
    /// `kSecAttrSynchronizable` (always `false` for a valid policy; kept to state it on every query).
    public let synchronizable: Bool
    /// `kSecUseDataProtectionKeychain` (only meaningful on macOS).
    public let usesDataProtectionKeychain: Bool
    /// `kSecAttrAccessGroup`, set only when the item is shared.
    public let accessGroup: String?
    /// The platform whose rules apply.
    public let platform: KeychainPlatform

    /// The receiver's default: device-bound (`AfterFirstUnlockThisDeviceOnly`), never
    /// synchronizable, the data-protection keychain on macOS, an access group only when shared.
    ///
    /// - Parameter sharedAccessGroup: the full `TEAMID.name` group when extensions or other
    ///   apps of the team read the item; `nil` for the app's default group.
    /// - Throws: the first rule `sharedAccessGroup` breaks.
    public static func deviceBound(namespace: KeychainServiceNamespace, sharedAccessGroup: String? = nil,
                                   platform: KeychainPlatform) throws(KeychainPolicyViolation) -> KeychainItemPolicy {
        try KeychainItemPolicy(namespace: namespace, accessibility: .afterFirstUnlockThisDeviceOnly,
                               synchronizable: false, usesDataProtectionKeychain: platform == .macOS,
                               accessGroup: sharedAccessGroup, platform: platform)
    }

    /// A policy with every attribute given explicitly.
    ///
    /// - Throws: the first of ``violations(accessibility:synchronizable:usesDataProtectionKeychain:accessGroup:platform:)``.
    public init(namespace: KeychainServiceNamespace, accessibility: KeychainAccessibility, synchronizable: Bool,
                usesDataProtectionKeychain: Bool, accessGroup: String?, platform: KeychainPlatform) throws(KeychainPolicyViolation) {
        if let first = Self.violations(accessibility: accessibility, synchronizable: synchronizable,
                                       usesDataProtectionKeychain: usesDataProtectionKeychain,
                                       accessGroup: accessGroup, platform: platform).first {
            throw first
        }
        self.namespace = namespace
        self.accessibility = accessibility
        self.synchronizable = synchronizable
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
        self.accessGroup = accessGroup
        self.platform = platform
    }

    /// Every rule the combination breaks, most specific first (empty when it is valid).
    public static func violations(accessibility: KeychainAccessibility, synchronizable: Bool,
                                  usesDataProtectionKeychain: Bool, accessGroup: String?,
                                  platform: KeychainPlatform) -> [KeychainPolicyViolation] {
        var found: [KeychainPolicyViolation] = []
        if synchronizable && accessibility.isThisDeviceOnly { found.append(.synchronizableWithThisDeviceOnly(accessibility)) }
        if synchronizable { found.append(.synchronizableInDeviceBoundNamespace) }
        if let group = accessGroup {
            let isAppGroup = group.hasPrefix("group.")
            switch platform {
            case .macOS:
                if isAppGroup { found.append(.appGroupAsKeychainGroupOnMacOS(group)) }
                else if !TeamIDPrefix.isPresent(in: group) { found.append(.accessGroupWithoutTeamIDPrefix(group)) }
                if !usesDataProtectionKeychain { found.append(.accessGroupWithoutDataProtectionKeychainOnMacOS(group)) }
            case .iOSFamily:
                // iOS accepts an app group as an explicit access group; any other group needs the Team ID.
                let appGroupHasName = isAppGroup && group.count > "group.".count
                if !appGroupHasName && !TeamIDPrefix.isPresent(in: group) { found.append(.accessGroupWithoutTeamIDPrefix(group)) }
            }
        }
        if platform == .macOS && !usesDataProtectionKeychain { found.append(.fileBasedKeychainOnMacOS) }
        return found
    }

    /// The item holding the active credential of `account`.
    public func activeItem(for account: LocalAccountID) -> KeychainItemQuery {
        query(service: namespace.activeService, account: account.rawValue)
    }

    /// The item holding a staged credential.
    public func stagedItem(_ staged: StagedCredential) -> KeychainItemQuery {
        query(service: namespace.stagingService, account: staged.name)
    }

    /// Every active item of the namespace (for listing, never for deleting).
    public var allActiveItems: KeychainItemQuery { query(service: namespace.activeService, account: nil) }

    /// Every staged item of the namespace (for listing, never for deleting).
    public var allStagedItems: KeychainItemQuery { query(service: namespace.stagingService, account: nil) }

    /// A delete query, refused unless it names both service and account.
    ///
    /// - Throws: ``KeychainPolicyViolation/unscopedDelete(missing:)`` listing what is missing
    ///   (an empty string counts as missing).
    public func deleteQuery(service: String?, account: String?) throws(KeychainPolicyViolation) -> KeychainItemQuery {
        var missing: [KeychainPolicyViolation.ScopeAttribute] = []
        if service?.isEmpty ?? true { missing.append(.service) }
        if account?.isEmpty ?? true { missing.append(.account) }
        guard missing.isEmpty else { throw .unscopedDelete(missing: missing) }
        return query(service: service, account: account)
    }

    private func query(service: String?, account: String?) -> KeychainItemQuery {
        KeychainItemQuery(service: service, account: account, accessGroup: accessGroup, synchronizable: synchronizable,
                          usesDataProtectionKeychain: platform == .macOS && usesDataProtectionKeychain,
                          accessibility: accessibility)
    }
}

/// The ten-character Team ID prefix rule for access groups.
enum TeamIDPrefix {
    /// Whether `group` starts with ten upper-case letters or digits, a dot and a non-empty name.
    static func isPresent(in group: String) -> Bool {
        let scalars = Array(group.unicodeScalars)
        guard scalars.count > 11, scalars[10] == "." else { return false }
        return scalars[..<10].allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
