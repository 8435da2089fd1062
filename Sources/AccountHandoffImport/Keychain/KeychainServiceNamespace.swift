/// The versioned `kSecAttrService` namespace of the receiver's items, so a device-bound item
/// is never mistaken for an item of another (for example a future synchronizable) namespace.
///
/// Active items use `<base>.v<version>`, staged items `<base>.v<version>.staging`.
public struct KeychainServiceNamespace: Hashable, Sendable {
    /// A reverse-DNS base such as `com.example.mail.account-password`.
    public let base: String
    /// The namespace version, 1 or more.
    public let version: Int

    /// Validates and stores the namespace.
    ///
    /// - Throws: ``KeychainPolicyViolation/invalidServiceNamespace(_:)`` when `base` is empty,
    ///   longer than 200 bytes, not made of `A-Z a-z 0-9 . _ -`, starts or ends with a dot,
    ///   or `version` is below 1.
    public init(base: String, version: Int) throws(KeychainPolicyViolation) {
        let allowed = base.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": true
            default: false
            }
        }
        guard !base.isEmpty, base.utf8.count <= 200, allowed, !base.hasPrefix("."), !base.hasSuffix("."), version >= 1 else {
            throw .invalidServiceNamespace(base)
        }
        self.base = base
        self.version = version
    }

    /// The service of active items.
    public var activeService: String { "\(base).v\(version)" }
    /// The service of staged items.
    public var stagingService: String { "\(activeService).staging" }
}
