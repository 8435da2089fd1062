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
            return sentenceCatalog.sentence("send.codeTriesUsedUp", .number(HandoffSender.maximumCodeEntries), in: .cli)
        default:
            break
        }
        return outcome.message(in: .cli)
    }

    /// What the first cancel prints: after the password left, it only stops waiting.
    private static func cancellingLine(_ cause: CancelCause, phase: SenderPhase?) -> String {
        switch (cause, phase == .awaitingReceipt) {
        case (.interrupted, false): sentenceCatalog.sentence("cancelling.transfer.interrupted", in: .cli)
        case (.typedCancel, false): sentenceCatalog.sentence("cancelling.transfer.typed", in: .cli)
        case (.interrupted, true): sentenceCatalog.sentence("cancelling.sent.interrupted", in: .cli)
        case (.typedCancel, true): sentenceCatalog.sentence("cancelling.sent.typed", in: .cli)
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
                console.line(sentenceCatalog.sentence("send.typedCodeRetired", .text(newCode.grouped), in: .cli))
                newCode.wipe()
            case .typedCodeReplaced(let newCode):
                console.line(sentenceCatalog.sentence("send.typedCodeReplaced", .text(newCode.grouped), in: .cli))
                newCode.wipe()
            case .typedWayWithdrawn(let reason):
                switch reason {
                case .wrongGuesses:
                    console.line(sentenceCatalog.sentence("send.typedWay.wrongGuesses", in: .cli))
                case .namesTaken:
                    console.line(sentenceCatalog.sentence("send.typedWay.namesTaken", in: .cli))
                case .pairedByQR:
                    break  // the QR's own lines follow
                }
            case .pairedByTypedCode:
                console.line(sentenceCatalog.sentence("send.pairedByTypedCode", in: .cli))
            case .receiverJoined:
                console.line(sentenceCatalog.sentence("send.receiverJoined", in: .cli))
                question = Task { await typeCode(asking: asking) }
            case .offerSent(let code):
                console.line(sentenceCatalog.sentence("send.offerSent", .text(code.grouped), in: .cli))
            case .receiverAccepted:
                // Said by the gate's announcement, in the gate's task, so that the receiving
                // device's declaration always comes before this device's question (Spec 3.6).
                break
            case .authenticating:
                break  // said by the gate itself, right before it asks (AnnouncingAuthenticator)
            case .credentialSent:
                console.line(sentenceCatalog.sentence("send.credentialSent", in: .cli))
            case .anotherDeviceJoined:
                console.error(sentenceCatalog.sentence("send.anotherDeviceJoined", in: .cli))
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
            let question = sentenceCatalog.sentence("send.codeQuestion", .text(left), in: .cli)
            guard let answer = await asking.ask(question, about: .receivingDevicesCode, acceptsCode: true) else { return }
            do throws(HandoffError) {
                switch answer {
                case .typedCode(let typed):
                    switch try await session.enterCode(typed) {
                    case .matched:
                        return
                    case .mismatch(let remaining):
                        console.line(remaining == 1 ? sentenceCatalog.sentence("send.codeMismatch.one", in: .cli)
                            : sentenceCatalog.sentence("send.codeMismatch.many", .number(remaining), in: .cli))
                    case .rejected:
                        codeTriesUsedUp.set()  // the ending says it
                        return
                    }
                case .yes:
                    console.line(sentenceCatalog.sentence("send.yesIsNoCode", in: .cli))
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
            ? sentenceCatalog.sentence("ignored.one", .text(last.identifier), in: .cli)
            : sentenceCatalog.sentence("ignored.many", .number(count), .text(last.identifier), in: .cli)
    }
}
