import AccountHandoffDiscovery

/// Samples of the errors of module `AccountHandoffDiscovery`.
enum DiscoveryErrorSamples {
    static var all: [ErrorSample] {
        discoveryErrors.map { ErrorSample($0) } + ignoreReasons.map { ErrorSample($0) }
            + ([.withdrawn, .namesTaken(collisions: 9)] + discoveryErrors.map(AdvertisingStopped.discoveryFailed)).map { ErrorSample($0) }
    }

    static let discoveryErrors: [DiscoveryError] = [
        .daemonNotRunning, .daemonStopped, .notPermitted, .daemonBusy,
        .failed(.connect, daemonSays: "Invalid configuration"), .failed(.advertise, daemonSays: "Invalid service name"),
        .failed(.browse, daemonSays: "Timeout reached"), .failed(.resolve, daemonSays: "Timeout reached"),
    ]

    static let ignoreReasons: [DiscoveryIgnoreReason] = [
        .instanceNameNotOurs, .otherDomain, .txtMalformed, .txtEntryCount(3), .versionEntryMissing, .otherVersion, .nameplateEntryMalformed,
        .nameplateMismatch, .notIPv4, .zeroPort,
    ]
}
