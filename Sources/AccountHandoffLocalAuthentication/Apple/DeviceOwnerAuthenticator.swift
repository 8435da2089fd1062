#if canImport(LocalAuthentication)
import AccountHandoff
import Foundation
import LocalAuthentication

/// Authenticates the device's owner with Touch ID, Face ID, Optic ID or, as their fallback,
/// the device passcode (macOS: the login password), before a credential is sent or received
/// (Spec 8.7).
///
/// Each call evaluates `LAPolicy.deviceOwnerAuthentication` on a fresh `LAContext`, so no
/// earlier success is ever reused, with ``AccountHandoff/LocalAuthenticationPurpose/reason``
/// as the `localizedReason` the system shows under its prompt (for example "Send the password
/// of ada@example.org to the receiving device."). The reason strings are English; an app that
/// localizes passes its own `reason` closure.
///
/// Results (`LAError` codes):
/// - success: ``AccountHandoff/LocalAuthenticationResult/authenticated``;
/// - `userCancel`, `appCancel`, `systemCancel`, `userFallback`, or the task was cancelled
///   (the context is then invalidated, which dismisses the prompt):
///   ``AccountHandoff/LocalAuthenticationResult/cancelled``;
/// - `authenticationFailed`: ``AccountHandoff/LocalAuthenticationFailure/notRecognized``;
/// - `biometryLockout`: ``AccountHandoff/LocalAuthenticationFailure/lockedOut``;
/// - `passcodeNotSet`, `biometryNotAvailable`, `biometryNotEnrolled`, `notInteractive`,
///   `invalidContext` and every other error:
///   ``AccountHandoff/LocalAuthenticationFailure/unavailable(detail:)``.
///
/// ```swift
/// let gate = DeviceOwnerAuthenticator()
/// let result = await gate.authenticate(for: .receiveCredential(account))
/// ```
///
/// - Important: An app that may use Face ID must declare `NSFaceIDUsageDescription` in its
///   `Info.plist` (a sentence such as "Face ID confirms that you want to move an account to
///   or from this device."); without it the system refuses biometry for the app.
public struct DeviceOwnerAuthenticator: LocalAuthenticator {
    private let reason: @Sendable (LocalAuthenticationPurpose) -> String
    private let language: HandoffLanguage

    /// An authenticator that shows `reason(purpose)` in the system's prompt.
    ///
    /// - Parameters:
    ///   - language: The language of the prompt's default reason and of the details of
    ///     ``AccountHandoff/LocalAuthenticationFailure/unavailable(detail:)``; by default the
    ///     process's (``AccountHandoff/HandoffLanguage/current``).
    ///   - reason: the sentence for the prompt; by default
    ///     ``AccountHandoff/LocalAuthenticationPurpose/reason(in:)`` in `language`. It must not
    ///     be empty (`LAContext` rejects an empty reason) and must not hold a secret.
    public init(language: HandoffLanguage = .current,
                reason: (@Sendable (LocalAuthenticationPurpose) -> String)? = nil) {
        self.language = language
        self.reason = reason ?? { $0.reason(in: language) }
    }

    /// The system's prompt asks the person: ``GateDeclaration/asks``.
    public var gateDeclaration: GateDeclaration { .asks }

    /// Shows the system's authentication prompt for `purpose` and waits for the person.
    ///
    /// - Parameter purpose: why; its reason is shown in the prompt.
    /// - Returns: how the authentication ended; ``AccountHandoff/LocalAuthenticationResult/cancelled``
    ///   when the task is cancelled (the prompt is dismissed).
    public func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        guard !Task.isCancelled else { return .cancelled }
        let context = EvaluationContext()
        let localizedReason = reason(purpose)
        let language = language
        precondition(!localizedReason.isEmpty, "LAContext needs a reason to show; the reason closure returned an empty string.")
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LocalAuthenticationResult, Never>) in
                context.context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: localizedReason) { success, error in
                    continuation.resume(returning: success ? .authenticated : Self.result(of: error, in: language))
                }
            }
        } onCancel: {
            context.context.invalidate()
        }
        return Task.isCancelled ? .cancelled : result
    }

    /// The result for the error `evaluatePolicy` reported.
    static func result(of error: (any Error)?, in language: HandoffLanguage) -> LocalAuthenticationResult {
        guard let error = error as? LAError else {
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.unknownReason", in: language)))
        }
        switch error.code {
        case .userCancel, .appCancel, .systemCancel, .userFallback:
            return .cancelled
        case .authenticationFailed:
            return .failed(.notRecognized)
        case .biometryLockout:
            return .failed(.lockedOut)
        case .passcodeNotSet:
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.passcodeNotSet", in: language)))
        case .biometryNotAvailable:
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.biometryNotAvailable", in: language)))
        case .biometryNotEnrolled:
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.biometryNotEnrolled", in: language)))
        case .notInteractive:
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.notInteractive", in: language)))
        case .invalidContext:
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.invalidContext", in: language)))
        default:
            return .failed(.unavailable(detail: sentenceCatalog.sentence("deviceOwner.unrecognized", .number(error.code.rawValue), in: language)))
        }
    }
}

/// One `LAContext` for one evaluation, shared with the cancellation handler, which may run on
/// another thread: `invalidate()` is the documented way to cancel an evaluation in progress.
private final class EvaluationContext: @unchecked Sendable {
    // Safety of @unchecked Sendable: after `init`, the context is only asked to evaluate once
    // and to invalidate, which LocalAuthentication allows from any thread.
    let context = LAContext()
}
#endif
