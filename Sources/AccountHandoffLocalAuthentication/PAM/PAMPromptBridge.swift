#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff
import Foundation

/// Carries prompts from the PAM thread to the authenticating task and the answers back.
///
/// The PAM thread blocks in ``ask(_:)`` (it is a thread of its own, never a Swift concurrency
/// thread) while the task awaits the app's ``PAMConversation``. ``cancel()`` releases the PAM
/// thread at once: every question then goes unanswered, so the PAM call returns and the
/// thread ends the transaction.
final class PAMPromptBridge: @unchecked Sendable {
    // Safety of @unchecked Sendable: every stored property but `events` (itself Sendable) is
    // touched only under `condition`.

    /// What the task receives.
    enum Event: Sendable {
        /// A prompt waits for ``PAMPromptBridge/reply(_:)``.
        case prompt(PAMPrompt)
        /// The transaction ended.
        case finished(LocalAuthenticationResult)
    }

    /// The events, for the authenticating task to iterate.
    let events: AsyncStream<Event>

    private let continuation: AsyncStream<Event>.Continuation
    private let condition = NSCondition()
    private var answer: PAMAnswer?
    private var answered = false
    private var cancelled = false
    private var questions = 0

    init() {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
    }

    /// Whether the person or the task cancelled.
    var isCancelled: Bool {
        condition.withLock { cancelled }
    }

    /// How many questions (not messages) the task was asked so far.
    var questionsAsked: Int {
        condition.withLock { questions }
    }

    /// On the PAM thread: hands `prompt` to the task and waits for its answer; `nil` once the
    /// authentication was cancelled (then at once).
    func ask(_ prompt: PAMPrompt) -> PAMAnswer? {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled else { return nil }
        if prompt.isQuestion { questions += 1 }
        answered = false
        continuation.yield(.prompt(prompt))
        while !answered && !cancelled { condition.wait() }
        defer { answer = nil }
        return cancelled ? nil : answer
    }

    /// On the task: answers the pending prompt; `nil` cancels the authentication. An answer
    /// that arrives after a cancel is dropped (a secret is wiped).
    func reply(_ reply: PAMAnswer?) {
        condition.lock()
        defer { condition.unlock() }
        guard let reply, !cancelled else {
            if case .secret(let secret)? = reply { secret.wipe() }
            cancelLocked()
            return
        }
        answer = reply
        answered = true
        condition.broadcast()
    }

    /// Cancels: releases a waiting ``ask(_:)`` and ends ``events``, so an iterating task stops.
    func cancel() {
        condition.withLock { cancelLocked() }
    }

    /// On the PAM thread: delivers the result and ends ``events``.
    func finish(_ result: LocalAuthenticationResult) {
        continuation.yield(.finished(result))
        continuation.finish()
    }

    private func cancelLocked() {
        cancelled = true
        condition.broadcast()
        continuation.finish()
    }
}
#endif
