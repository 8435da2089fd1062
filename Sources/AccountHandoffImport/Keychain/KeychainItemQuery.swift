/// The attributes of one `SecItem` query, as pure values. The Apple adapter turns it into
/// the Security framework dictionary; tests compare it directly.
public struct KeychainItemQuery: Hashable, Sendable {
    /// `kSecClass`: always a generic password.
    public let itemClass = "genericPassword"
    /// `kSecAttrService`, or `nil` to match any service (never for a delete).
    public let service: String?
    /// `kSecAttrAccount`, or `nil` to match any account (never for a delete).
    public let account: String?
    /// `kSecAttrAccessGroup`, or `nil` for the app's default group.
    public let accessGroup: String?
    /// `kSecAttrSynchronizable`, stated on every query so synced items are never matched.
    public let synchronizable: Bool
    /// `kSecUseDataProtectionKeychain` (set only on macOS).
    public let usesDataProtectionKeychain: Bool
    /// `kSecAttrAccessible`, used when the item is added.
    public let accessibility: KeychainAccessibility
}
