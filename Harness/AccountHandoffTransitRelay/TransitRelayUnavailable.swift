import Foundation

/// Why Debian's transit relay could not be started. Each ``description`` is one sentence.
public enum TransitRelayUnavailable: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// Neither `twistd3` nor `twistd` was found, or its `transitrelay` plugin is missing
    /// (Debian: `apt-get install magic-wormhole-transit-relay`).
    case notInstalled
    /// A preparation step failed (the temporary directory).
    case setupFailed(String)
    /// The relay could not be launched.
    case launchFailed(String)
    /// The relay exited during startup; its log ends with `log`.
    case exited(log: String)
    /// The relay did not say which port it listens on within the startup timeout.
    case notListening(log: String)

    /// One sentence saying what is missing or failed, and what to do.
    public var errorDescription: String? { description }

    /// One sentence saying what is missing or failed.
    public var description: String {
        switch self {
        case .notInstalled:
            "The transit relay cannot be started because it is not installed (install magic-wormhole-transit-relay, which provides twistd3 and its transitrelay plugin)."
        case .setupFailed(let detail):
            "The transit relay cannot be started because its setup failed: \(detail)."
        case .launchFailed(let detail):
            "The transit relay could not be launched: \(detail)."
        case .exited:
            "The transit relay exited while starting; see its log."
        case .notListening:
            "The transit relay did not start listening in time; see its log."
        }
    }

    /// The end of the relay's log, when the failure has one (for test failure messages).
    public var logExcerpt: String? {
        switch self {
        case .exited(let log), .notListening(let log): log
        default: nil
        }
    }
}
