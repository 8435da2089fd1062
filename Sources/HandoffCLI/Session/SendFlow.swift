import AccountHandoff
import Foundation

/// The terminal side of a sender session: it shows each QR, asks the person to type the code
/// that the receiving device shows (this device never shows its own, Spec 4.4), forwards
/// Ctrl-C as a cancel, and turns the outcome into a sentence and an exit code.
struct SendFlow {
    let session: HandoffSenderSession
    let account: AccountMetadata
    let drawing: CodeDrawing
    let asking: Asking
    /// How standard input was read before the questions (for the advice when it ends).
    let piped: PipedAnswers
    /// Set when the code was typed wrong as often as allowed.
    let codeTriesUsedUp = OnceFlag()
    var console: Console { asking.console }

    func run() async -> ExitCode {
        let session = self.session
        let outcome = await TerminalSessionRun.run(asking: asking, cancel: { await session.cancel() },
                                                   cancelling: { Self.cancellingLine($0, phase: await session.phase) },
                                                   show: { await show(asking: $0, answers: $1) }, session: { await session.run() })
        let code = ExitCode(outcome)
        code == .success ? console.line(outcome.message(in: .cli)) : console.error(await ending(of: outcome))
        return code
    }

    /// The last line when the transfer did not complete: the outcome's, unless nobody could
    /// answer (standard input ended) or the code was typed wrong too often, which the
    /// outcome alone would call a person's decision.
    private func ending(of outcome: SenderOutcome) async -> String {
        switch outcome {
        case .ended(.cancelled(by: .local)):
            if let question = await asking.answers.unanswered { return question.unansweredAtSender + " " + piped.advice }
        case .ended(.rejected(by: .local)) where codeTriesUsedUp.isSet:
            return "The code was typed wrong \(HandoffSender.maximumCodeEntries) times, so the transfer was stopped and the password was not sent. If you typed what the receiving screen showed, another device may have used your transfer code: start a new transfer and keep its code out of sight."
        default:
            break
        }
        return outcome.message(in: .cli)
    }

    /// What the first cancel prints: after the password left, it only stops waiting.
    private static func cancellingLine(_ cause: CancelCause, phase: SenderPhase?) -> String {
        switch (cause, phase == .awaitingReceipt) {
        case (.interrupted, false): "Cancelling the transfer (interrupted)."
        case (.typedCancel, false): "Cancelling the transfer (you typed cancel)."
        case (.interrupted, true): "Interrupted: the password has already been sent, so this only stops waiting for the receiving device to confirm the import."
        case (.typedCancel, true): "You typed cancel: the password has already been sent, so this only stops waiting for the receiving device to confirm the import."
        }
    }

    private func show(asking: Asking, answers: AnswerQueue) async {
        var question: Task<Void, Never>?
        for await update in session.updates {
            switch update {
            case .showCode(let payload, let typed, let number):
                defer { typed?.wipe() }
                do { try await blockingStep { [drawing] () throws(CLIError) in try drawing.show(payload, typed: typed, number: number) } } catch {
                    console.error(error.message)
                    await session.cancel()
                }
            case .typedCodeRetired(let newCode, _):
                console.line("A device tried a code that does not match; this code no longer works. The new code is \(newCode.grouped).")
                newCode.wipe()
            case .typedCodeReplaced(let newCode):
                console.line("Another device on this network shows the same code; type \(newCode.grouped) instead.")
                newCode.wipe()
            case .typedWayWithdrawn(let reason):
                switch reason {
                case .wrongGuesses:
                    console.line("Three devices tried wrong codes; typing a code is turned off for this transfer: scan the QR code, or start again.")
                case .namesTaken:
                    console.line("Other devices on this network showed each code this device drew, so typing a code is turned off for this transfer: scan the QR code, or start again.")
                case .pairedByQR:
                    break  // the QR's own lines follow
                }
            case .pairedByTypedCode:
                console.line("The receiving device typed the right code. Sending the account details (encrypted); waiting for the receiving device to accept...")
            case .receiverJoined:
                console.line("A receiving device joined; it now shows a six-digit code. Type that code here. Answer no if it shows none: then a device you do not know has joined with your transfer code, and the transfer stops as declined. Answer cancel to stop the transfer for any other reason.")
                question = Task { await typeCode(asking: asking) }
            case .offerSent(let code):
                console.line("Code \(code.grouped) confirmed. Sending the account details (encrypted); waiting for the receiving device to accept...")
            case .receiverAccepted(let receiverGate):
                // Before this device's gate asks and the password is read (Spec 3.6).
                if let sentence = receiverGate.sentence(shownBy: .sender, in: .cli) { console.line(sentence) }
            case .authenticating:
                break  // said by the gate itself, right before it asks (AnnouncingAuthenticator)
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

    /// Asks for the receiving screen's code until it matches, the tries run out, or the person
    /// declines. Anything but six digits is asked again without using a try (Spec 4.4).
    private func typeCode(asking: Asking) async {
        while true {
            let left = await session.payload.map { Durations.left(until: $0.expiryDate) } ?? ""
            let question = "Type the six-digit code that the receiving device shows (no if it shows none, cancel to stop; \(left))."
            guard let answer = await asking.ask(question, about: .receivingDevicesCode, acceptsCode: true) else { return }
            do throws(HandoffError) {
                switch answer {
                case .typedCode(let typed):
                    switch try await session.enterCode(typed) {
                    case .matched:
                        return
                    case .mismatch(let remaining):
                        console.line("That is not the code the receiving device shows for this transfer. Check its screen and type its code again (\(remaining) more \(remaining == 1 ? "try" : "tries")).")
                    case .rejected:
                        codeTriesUsedUp.set()  // the ending says it
                        return
                    }
                case .yes:
                    console.line("Type the six digits shown on the receiving device; this device cannot check a yes.")
                case .no:
                    try await session.reject()
                    return
                case .cancel:
                    await session.cancel()
                    return
                }
            } catch .malformed(.typedCode) {
                console.line(HandoffError.malformed(.typedCode).message(for: .sender, in: .cli))
            } catch {
                console.error(error.message(for: .sender, in: .cli))
                return
            }
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
