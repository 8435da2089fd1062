import AccountHandoff
import Foundation

/// A ``LocalAuthenticator`` that answers from a fixed script, one step per call, and records
/// every purpose it was asked for: for tests and demos of the session drivers' gate
/// (Spec 8.7), on both devices.
///
/// ```swift
/// let refusing = ScriptedAuthenticator(always: .cancelled)
/// let patient = ScriptedAuthenticator([.waitUntilCancelled])  // a person who never answers
/// ```
public final class ScriptedAuthenticator: LocalAuthenticator, @unchecked Sendable {
    // Safety of @unchecked Sendable: `steps`, `asked` and `waiters` are touched only under `lock`.

    /// What one call does.
    public enum Step: Sendable, Hashable {
        /// Returns this result at once (or ``LocalAuthenticationResult/cancelled`` if the task
        /// is already cancelled).
        case answer(LocalAuthenticationResult)
        /// Waits until the calling task is cancelled, then returns
        /// ``LocalAuthenticationResult/cancelled``: a person who never answers the prompt.
        case waitUntilCancelled
    }

    private let lock = NSLock()
    private var steps: [Step]
    private let afterScript: Step
    private var asked: [LocalAuthenticationPurpose] = []
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// An authenticator that plays `script` in order, then `afterScript` for every further call.
    ///
    /// - Parameters:
    ///   - script: the steps of the first calls.
    ///   - afterScript: the step of every call after the script; by default a failure, so a
    ///     test that asks more often than it planned sees it.
    ///   - gateDeclaration: what the session declares to the other device (Spec 3.4, 3.6):
    ///     ``GateDeclaration/skipped`` plays a device whose gate is turned off.
    public init(_ script: [Step],
                 afterScript: Step = .answer(.failed(.unavailable(detail: "The scripted authenticator has no more answers."))),
                 gateDeclaration: GateDeclaration = .asks) {
        self.steps = script
        self.afterScript = afterScript
        self.gateDeclaration = gateDeclaration
    }

    /// An authenticator that always returns `result`, declaring `gateDeclaration`.
    public convenience init(always result: LocalAuthenticationResult, gateDeclaration: GateDeclaration = .asks) {
        self.init([], afterScript: .answer(result), gateDeclaration: gateDeclaration)
    }

    /// What the session declares to the other device (Spec 3.4, 3.6).
    public let gateDeclaration: GateDeclaration

    /// Every purpose asked for so far, in order.
    public var purposes: [LocalAuthenticationPurpose] {
        lock.withLock { asked }
    }

    /// Records `purpose` and plays the next step of the script.
    public func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        let step = lock.withLock {
            asked.append(purpose)
            return steps.isEmpty ? afterScript : steps.removeFirst()
        }
        switch step {
        case .answer(let result):
            return Task.isCancelled ? .cancelled : result
        case .waitUntilCancelled:
            let id = UUID()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = lock.withLock {
                        if Task.isCancelled { return true }
                        waiters[id] = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                lock.withLock { waiters.removeValue(forKey: id) }?.resume()
            }
            return .cancelled
        }
    }
}
