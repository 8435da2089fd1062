import Foundation

/// What both terminal flows do around a running session: a `cancel` typed while no question
/// is open, Ctrl-C and SIGTERM cancel it, and its updates are shown (with questions asked
/// through one ``Asking``) until it ends.
enum TerminalSessionRun {
    /// Runs `session` to its outcome, with `show` presenting the updates meanwhile; returns
    /// once both have finished, with terminal echo on.
    ///
    /// - Parameter cancelling: the line for the first cancel (Ctrl-C, SIGTERM or a typed
    ///   `cancel`), which depends on how far the transfer got (after the password left, a
    ///   cancel only stops waiting).
    static func run<Outcome>(asking: Asking, cancel: @escaping @Sendable () async -> Void,
                             cancelling: @escaping @Sendable (CancelCause) async -> String,
                             show: @escaping @Sendable (Asking, AnswerQueue) async -> Void,
                             session: () async -> Outcome) async -> Outcome {
        let console = asking.console
        // In place before the session shows or asks anything: no signal can find the
        // process without it.
        let signals = Signals.interrupts()
        await asking.answers.onCancel {
            console.line(await cancelling(.typedCancel))
            await cancel()
        }
        let interrupts = Task {
            var first = true
            for await _ in signals {
                if first {
                    first = false
                    // Said before anything can end: the open question is left as it is, and
                    // nothing typed from now on answers it.
                    let sentence = await cancelling(.interrupted)
                    console.abandonQuestion()
                    console.line(sentence)
                    await asking.answers.close()
                }
                await cancel()
            }
        }
        let updates = Task { await show(asking, asking.answers) }
        let outcome = await session()
        await updates.value
        interrupts.cancel()
        // A question still open (the gate's, when the other device ended the transfer) is
        // left as it is, so the ending is not followed by it; nothing is asked any more.
        await asking.answers.close()
        console.abandonQuestion()
        TerminalEcho.restore()
        return outcome
    }
}

/// What asked to cancel the transfer.
enum CancelCause: Sendable {
    /// Ctrl-C (SIGINT) or SIGTERM.
    case interrupted
    /// `cancel` typed while no question was open.
    case typedCancel
}
