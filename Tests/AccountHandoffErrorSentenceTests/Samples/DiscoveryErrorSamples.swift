import AccountHandoff
import AccountHandoffDiscovery
import AccountHandoffTransport

/// Samples of the errors of module `AccountHandoffDiscovery`.
enum DiscoveryErrorSamples {
    static var all: [ErrorSample] {
        discoveryErrors.map { ErrorSample($0) } + ignoreReasons.map { ErrorSample($0) }
            + ([.withdrawn, .namesTaken(collisions: 9)] + discoveryErrors.map(AdvertisingStopped.discoveryFailed)).map { ErrorSample($0) }
            + typedSearchErrors.map { ErrorSample($0) }
    }

    static var typedSearchErrors: [TypedSearchError] {
        let nameplate = TypedCode.Nameplate(value: 427)!
        return [.notFound(nameplate), .ambiguous(nameplate, devices: 2), .addressRefused(nameplate, IPv4Address("203.0.113.5")!, .publicAddress),
                .discoveryFailed(.daemonNotRunning)]
    }

    static let discoveryErrors: [DiscoveryError] = [
        .daemonNotRunning, .daemonStopped, .notPermitted, .daemonBusy,
        .failed(.connect, .daemonSays("Invalid configuration")), .failed(.advertise, .daemonSays("Invalid service name")),
        .failed(.browse, .daemonSays("Timeout reached")), .failed(.resolve, .daemonSays("Timeout reached")),
        .failed(.advertise, .daemonCode(-65537)), .failed(.connect, .outOfMemory), .failed(.browse, .outOfMemory),
        .failed(.connect, .noDescriptorLeft),
    ]

    static let ignoreReasons: [DiscoveryIgnoreReason] = [
        .instanceNameNotOurs, .otherDomain, .txtMalformed, .txtEntryCount(3), .versionEntryMissing, .otherVersion, .nameplateEntryMalformed,
        .nameplateMismatch, .notIPv4, .zeroPort,
    ]
}
