/// Which Keychain rules apply: macOS has two keychain implementations, the other Apple
/// platforms one.
public enum KeychainPlatform: String, Hashable, Sendable, CaseIterable {
    /// macOS (AppKit): `SecItem` calls go to the file-based keychain unless they ask for the
    /// data-protection keychain; access groups work only there; app groups are not keychain groups.
    case macOS
    /// iOS, iPadOS, Mac Catalyst, watchOS, tvOS, visionOS: always the data-protection keychain;
    /// an app group (`group.` prefix) may be named as an access group.
    case iOSFamily

    #if canImport(Security)
    /// The platform this code runs on.
    public static var current: KeychainPlatform {
        #if os(macOS) && !targetEnvironment(macCatalyst)
        return .macOS
        #else
        return .iOSFamily
        #endif
    }
    #endif
}

/// When the item can be read (`kSecAttrAccessible`). The deprecated `Always` classes are not
/// representable.
public enum KeychainAccessibility: String, Hashable, Sendable, CaseIterable {
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`
    case whenPasscodeSetThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: the receiver's default, so a mail
    /// app can sync in the background after the first unlock, and the item never leaves the device.
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlocked`
    case whenUnlocked
    /// `kSecAttrAccessibleAfterFirstUnlock`
    case afterFirstUnlock

    /// Whether the class binds the item to this device (and therefore rules out sync).
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenPasscodeSetThisDeviceOnly, .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly: true
        case .whenUnlocked, .afterFirstUnlock: false
        }
    }
}
