extension KeychainStatusName {
    /// What a Security framework status means, as a lowercase clause for a sentence; the
    /// status name and number stay for support (``describe(_:)``).
    static func meaning(_ status: Int32) -> String {
        switch status {
        case -25299: "an item with the same name already exists"
        case -25300: "the item was not found"
        case -34018: "the app lacks the entitlement for its keychain access group"
        case -25308: "the keychain cannot be used while the device is locked"
        case -50: "a parameter of the request was not valid"
        case -128: "the person cancelled the request"
        default: "the Keychain reported a status this library does not name"
        }
    }
}
