import Foundation

extension LocalAuthenticationFailure: CustomStringConvertible, LocalizedError {
    /// Whole sentences for the person: what happened and what to do next. Never a secret;
    /// for ``unavailable(detail:)`` the adapter's secret-free detail is included.
    public var description: String {
        let stopped = "The transfer stopped before anything secret was sent or stored."
        switch self {
        case .notRecognized:
            return "This device did not recognize the password, passcode or biometric match. \(stopped) Start a new transfer to try again."
        case .lockedOut:
            return "This device refuses to authenticate you now, after too many failed attempts or because your account is locked. \(stopped) Unlock the device or wait, then start a new transfer."
        case .unavailable(let detail):
            let cause = detail.isEmpty ? "" : (detail.hasSuffix(".") ? detail : detail + ".") + " "
            return "This device cannot authenticate its user. \(cause)\(stopped) Set up a password, passcode or biometrics (or ask the device's administrator), then start a new transfer."
        }
    }

    /// The same sentences, for `LocalizedError`.
    public var errorDescription: String? { description }
}
