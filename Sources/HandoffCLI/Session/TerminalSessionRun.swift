import Foundation

/// What both terminal flows do around a running session: a `cancel` typed while no question
/// is open and Ctrl-C both cancel it, and its updates are shown (with questions asked through
/// one ``Asking``) until it ends.
enum TerminalSessionRun {
    /// Runs `session` to its outcome, with `show` presenting the updates meanwhile; returns
    /// once both have finished.
    static func run<Outcome>(asking: Asking, cancel: @escaping @Sendable () async -> Void,
                             show: @escaping @Sendable (Asking, AnswerQueue) async -> Void,
                             session: () async -> Outcome) async -> Outcome {
        let console = asking.console
        await asking.answers.onCancel {
            console.line("Cancelling the transfer (you typed cancel).")
            await cancel()
        }
        let interrupts = Task {
            for await _ in Signals.interrupts() {
                console.line("")
                console.line("Cancelling the transfer (interrupted).")
                await cancel()
            }
        }
        let updates = Task { await show(asking, asking.answers) }
        let outcome = await session()
        await updates.value
        interrupts.cancel()
        return outcome
    }
}
