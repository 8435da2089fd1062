import AccountHandoff
import Foundation

/// The terminal side of a sender session: it prints what the session reports, asks the
/// person to compare the code (or type the code the receiving device shows) and to approve
/// the export, forwards Ctrl-C as a cancel, and turns the outcome into a sentence and an exit
/// code. A code is never confirmed without a person's answer.
struct SendFlow {
    let session: HandoffSenderSession
    let account: AccountMetadata
    /// Handed to the session only after the person approves the export; the session wipes it.
    let password: SecretBytes
    let console: Console
    let input: StandardInput

    func run() async -> ExitCode {
        let session = self.session
        let outcome = await TerminalSessionRun.run(console: console, input: input, cancel: { await session.cancel() },
                                                   show: { await show(asking: $0, answers: $1) }, session: { await session.run() })
        password.wipe()
        let code = ExitCode(outcome)
        code == .success ? console.line(outcome.message) : console.error(outcome.message)
        return code
    }

    private func show(asking: Asking, answers: AnswerQueue) async {
        var question: Task<Void, Never>?
        for await update in session.updates {
            switch update {
            case .waitingForReceiver:
                break
            case .codeReady(let code):
                console.line("The receiving device joined. Short code: \(code.grouped) (\(code.spoken)).")
                question = Task { await confirmCode(code, asking: asking) }
            case .offerSent:
                console.line("Sending the account details (encrypted); waiting for the receiving device to accept...")
            case .credentialRequested:
                console.line("The receiving device accepted the account.")
                question = Task { await approveExport(asking: asking) }
            case .credentialSent:
                console.line("Password sent (encrypted); it cannot be taken back. Waiting for the receiving device to confirm the import...")
            case .anotherDeviceJoined:
                console.error("Warning: another device proved it saw this transfer code after the password had left; it received nothing. Keep transfer codes out of sight.")
            case .framesIgnored(let count, let last):
                console.line(IgnoredFrames.sentence(count: count, last: last))
            case .finished:
                await answers.abandonWaiting()
                await question?.value
            }
        }
    }

    private func confirmCode(_ code: ShortCode, asking: Asking) async {
        let question = "Does the receiving device show the code \(code.grouped)? Type the code it shows, or yes if it matches, no if it differs, or cancel."
        guard let answer = await asking.ask(question, acceptsCode: true) else { return }
        do throws(HandoffError) {
            switch answer {
            case .typedCode(let typed):
                guard try await session.confirmCode(typed: typed) else {
                    console.line("The code you typed differs from \(code.grouped); the transfer is stopped.")
                    return
                }
            case .yes: try await session.confirmCode()
            case .no: try await session.rejectCode()
            case .cancel: await session.cancel()
            }
        } catch {
            console.error(error.message(for: .sender))
        }
    }

    private func approveExport(asking: Asking) async {
        let question = "Send the password of \(account.emailAddress) to the receiving device now?"
        guard let answer = await asking.ask(question, acceptsCode: false) else { return }
        do throws(HandoffError) {
            switch answer {
            case .yes: try await session.provideCredential(password)
            case .no, .typedCode: try await session.rejectCode()
            case .cancel: await session.cancel()
            }
        } catch {
            console.error(error.message(for: .sender))
        }
    }
}

/// The one line that reports ignored frames, at 1, 10, 100, ... of them.
enum IgnoredFrames {
    static func sentence(count: Int, last: HandoffError) -> String {
        count == 1
            ? "Ignored a message that is not part of this transfer (\(last.identifier)); the transfer goes on."
            : "Ignored \(count) messages that are not part of this transfer so far (the last: \(last.identifier)); the transfer goes on."
    }
}
