import AccountHandoff

/// Why a service a receiver found is not a sender of this protocol version and is ignored.
/// No case carries the service's own strings: they come from anyone on the network.
public enum DiscoveryIgnoreReason: Error, Hashable, Sendable {
    /// The instance name is not exactly `AccountHandoff ` and three ASCII digits.
    case instanceNameNotOurs
    /// The service is in another domain than `local`.
    case otherDomain
    /// The TXT record's bytes end inside a string.
    case txtMalformed
    /// The TXT record has this many strings, not two.
    case txtEntryCount(Int)
    /// The TXT record's first string is not `v=` and digits.
    case versionEntryMissing
    /// The TXT record names another protocol version than 4.
    case otherVersion
    /// The TXT record's second string is not exactly `np=` and three ASCII digits.
    case nameplateEntryMalformed
    /// The TXT record's nameplate is not the one in the instance name.
    case nameplateMismatch
    /// The service resolved to an address that is not IPv4 (discovery is IPv4 only).
    case notIPv4
    /// The service's port is 0, which no listener has.
    case zeroPort
}

extension DiscoveryIgnoreReason: LocalizedErrorSentence {
    /// A whole sentence for logs and diagnostics.
    public var description: String {
        let ignored = "so it is not a sending device of this version and was ignored."
        return switch self {
        case .instanceNameNotOurs: "A service's name is not AccountHandoff and a three-digit nameplate, \(ignored)"
        case .otherDomain: "A service is in another domain than local, \(ignored)"
        case .txtMalformed: "A service's TXT record ends inside one of its strings, \(ignored)"
        case .txtEntryCount(let count): "A service's TXT record has \(count) strings instead of 2, \(ignored)"
        case .versionEntryMissing: "A service's TXT record does not start with its protocol version, \(ignored)"
        case .otherVersion: "A service's TXT record names another protocol version than 4, so it was ignored; if it is the sending device, update the older of the two programs."
        case .nameplateEntryMalformed: "A service's TXT record has no nameplate of three digits after its version, \(ignored)"
        case .nameplateMismatch: "A service's TXT record names another nameplate than its name, \(ignored)"
        case .notIPv4: "A service resolved to an address that is not IPv4, \(ignored)"
        case .zeroPort: "A service names port 0, where nothing can listen, \(ignored)"
        }
    }
}
