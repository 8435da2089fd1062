import AccountHandoff
import AccountHandoffImport
import AccountHandoffTransport
import Foundation

/// The terminal side of a receiver session: it shows the code for the sending person to type,
/// shows the offered account (framed, Spec 3.7), settles a collision with a stored account
/// before the password travels, asks the person to accept, forwards Ctrl-C as a cancel, and
/// turns the outcome into a sentence and an exit code.
struct ReceiveFlow<Importer: AccountImporter> where Importer.Preparation: ChoosingPreparation {
    let session: HandoffReceiverSession<Importer>
    /// Where the account goes, as the progress line names it.
    let destination: ImportDestination
    /// The answer to a collision given on the command line, if any.
    let presetConflictChoice: ConflictAnswer?
    let asking: Asking
    /// How standard input was read before the questions (for the advice when it ends).
    let piped: PipedAnswers
    /// Where the code says the sender is.
    let rendezvous: TCPRendezvous
    /// Why the connect failed, when it did.
    let connectFailure: ConnectFailure
    var console: Console { asking.console }

    func run() async -> ExitCode {
        let session = self.session
        let outcome = await TerminalSessionRun.run(asking: asking, cancel: { await session.cancel() },
                                                   cancelling: { Self.cancellingLine($0, phase: await session.phase) },
                                                   show: { await show(asking: $0, answers: $1) }, session: { await session.run() })
        // The sender serving another code (Spec 11.4): past the code's own expiry it was
        // renewed; before it, this copy was changed, or the clocks disagree.
        let notServed = connectFailure.recorded == .codeRenewed
        if case .ended(.expired) = outcome, notServed, Date() < session.expiryDate {
            console.error(TransportError.codeRenewed.sentence(in: .cli) + " " + sentenceCatalog.sentence("receive.nothingImported", in: .cli))
            return .invalidInput
        }
        let code = ExitCode(outcome)
        if let ending = await ending(of: outcome, notServed: notServed) {
            console.error(ending)
            return code
        }
        // The importer's own sentence says what was checked and stored (or which server
        // refused what, which then replaces the general one).
        let detail = await session.detail
        if code == .success {
            if let detail { console.line(detail) }
            if let account = await session.offeredAccount, let place = await destination.whereKept(account) { console.line(place) }
            console.line(outcome.message(in: .cli))
        } else if outcome == .ended(.cancelled(by: .local)), let question = await asking.answers.unanswered {
            // Nobody cancelled: nobody could answer.
            console.error(question.unansweredAtReceiver + " " + piped.advice)
        } else {
            console.error((detail ?? outcome.message(in: .cli)) + (destination.adviceAfterFailure().map { " " + $0 } ?? ""))
        }
        return code
    }

    /// The last sentence where the outcome's own cannot know enough (see ``ReceiverEndingWords``).
    private func ending(of outcome: ReceiverOutcome, notServed: Bool) async -> String? {
        if case .ended(.expired) = outcome {
            if notServed { return ReceiverEndingWords.renewed }
            return await session.phase != nil ? ReceiverEndingWords.expiredDuringTransfer : nil
        }
        if case .ended(.contested) = outcome {
            // Turned away before any code was revealed: the other device joined first.
            return await session.shortCode == nil ? ReceiverEndingWords.transferTaken : nil
        }
        if case .ended(.failed(let error)) = outcome, error == .senderUnreachable {
            return ReceiverEndingWords.unreachable(rendezvous, failure: connectFailure.recorded)
        }
        return nil
    }

    /// What the first cancel prints: while the account is being checked and stored, it
    /// cancels the import.
    private static func cancellingLine(_ cause: CancelCause, phase: ReceiverPhase?) -> String {
        switch (cause, phase == .awaitingImportResult) {
        case (.interrupted, false): sentenceCatalog.sentence("cancelling.transfer.interrupted", in: .cli)
        case (.typedCancel, false): sentenceCatalog.sentence("cancelling.transfer.typed", in: .cli)
        case (.interrupted, true): sentenceCatalog.sentence("cancelling.import.interrupted", in: .cli)
        case (.typedCancel, true): sentenceCatalog.sentence("cancelling.import.typed", in: .cli)
        }
    }

    private func show(asking: Asking, answers: AnswerQueue) async {
        var question: Task<Void, Never>?
        for await update in session.updates {
            switch update {
            case .connected:
                console.line(sentenceCatalog.sentence("receive.connected", in: .cli))
            case .codeReady(let code):
                console.line(sentenceCatalog.sentence("receive.codeReady", .text(code.grouped), .text(SpokenCode.formatter.accessibilityLabel(for: code)), in: .cli))
                console.line(sentenceCatalog.sentence("receive.typeItThere", in: .cli))
            case .accountOffered(let account, let prepared, let senderGate):
                console.line(sentenceCatalog.sentence("receive.offered", in: .cli))
                OfferDisplay.lines(account).forEach { console.line($0) }
                // Before the person decides (Spec 3.4): the sender's own declaration.
                if let sentence = senderGate.sentence(shownBy: .receiver, in: .cli) { console.line(sentence) }
                question = Task { await review(prepared, asking: asking) }
            case .authenticating:
                break  // said by the gate itself, right before it asks (AnnouncingAuthenticator)
            case .accepted:
                console.line(sentenceCatalog.sentence("receive.accepted", in: .cli))
            case .importing(let account):
                if destination.validates {
                    console.line(sentenceCatalog.sentence("receive.checkingAndStoring", .text(account.imapHost), .number(account.imapPort), .text(destination.place),
                                                          in: .cli))
                } else {
                    console.line(sentenceCatalog.sentence("receive.storingUnchecked", .text(destination.place), in: .cli))
                }
            case .framesIgnored(let count, let last):
                console.line(IgnoredFrames.sentence(count: count, last: last))
            case .finished:
                await answers.abandonWaiting()
                await question?.value
            }
        }
    }

    /// Settles a collision, then asks whether to import; only then does the session accept.
    private func review(_ prepared: Importer.Preparation, asking: Asking) async {
        if let conflict = prepared.conflict {
            let choice = await choose(for: conflict, allowed: prepared.allowedChoices, asking: asking)
            guard choice != .cancel else {
                await session.cancel()
                return
            }
            do { try prepared.choose(choice) } catch {
                console.error(ImportOutcome.declined(.failed(error)).message(in: .cli))
                await session.cancel()
                return
            }
        }
        // The typed way learns the sender's expiry from its pakeInit (Spec 6.8).
        let left = Durations.left(until: await session.receiverExpiryDate)
        let question = sentenceCatalog.sentence("receive.importQuestion", .text(left), in: .cli)
        guard let answer = await asking.ask(question, about: .importDecision, acceptsCode: false) else { return }
        do throws(HandoffError) {
            switch answer {
            case .yes, .typedCode: try await session.accept()
            case .no: try await session.reject()
            case .cancel: await session.cancel()
            }
        } catch {
            console.error(error.message(for: .receiver, in: .cli))
        }
    }

    /// Shows the offered and the stored accounts side by side and gets the person's choice
    /// (or the one given with `--on-conflict`).
    private func choose(for conflict: ImportConflict, allowed: [ImportChoice], asking: Asking) async -> ImportChoice {
        console.line(conflict.existing.count == 1
            ? sentenceCatalog.sentence("conflict.header.one", in: .cli) : sentenceCatalog.sentence("conflict.header.many", in: .cli))
        for stored in conflict.existing {
            let id = SentenceArgument.text(stored.account.id.rawValue)
            console.line(stored.reasons.contains(.sameLinkID)
                ? sentenceCatalog.sentence("conflict.sameLinkID", id, in: .cli) : sentenceCatalog.sentence("conflict.sameAddress", id, in: .cli))
            OfferDisplay.comparison(offered: conflict.offered, stored: stored.account.metadata).forEach { console.line($0) }
        }
        let replace = allowed.first { if case .replace = $0 { true } else { false } }
        let canKeepBoth = allowed.contains(.keepBoth)
        if let preset = presetConflictChoice {
            let chosen: ImportChoice = switch preset {
            case .replace: replace ?? .cancel
            case .keepBoth: canKeepBoth ? .keepBoth : .cancel
            case .cancel: .cancel
            }
            console.line(sentenceCatalog.sentence("conflict.chosenByOption", .text(Self.describe(chosen)), in: .cli))
            if preset == .keepBoth, !canKeepBoth {
                console.line(conflict.canKeepBoth
                    ? sentenceCatalog.sentence("conflict.keepBothImpossible.thunderbird", in: .cli)
                    : sentenceCatalog.sentence("conflict.keepBothImpossible.sameAccount", in: .cli))
            }
            return chosen
        }
        var options: [String] = []
        if replace != nil { options.append(sentenceCatalog.sentence("conflict.option.replace", in: .cli)) }
        if canKeepBoth { options.append(sentenceCatalog.sentence("conflict.option.keep", in: .cli)) }
        options.append(sentenceCatalog.sentence("conflict.option.cancel", in: .cli))
        let words = (replace != nil ? ["replace"] : []) + (canKeepBoth ? ["keep"] : []) + ["cancel"]
        let question = sentenceCatalog.sentence("conflict.question", .text(options.joined(separator: ", ")), in: .cli)
        while true {
            guard let line = await asking.askLine(question, about: .conflictChoice, marker: "[" + words.joined(separator: "/") + "] ") else { return .cancel }
            let word = line.lowercased()
            if let replace, ["replace", "r"].contains(word) { return replace }
            if canKeepBoth, ["keep", "keep both", "keep-both", "k"].contains(word) { return .keepBoth }
            if ["cancel", "c", "no", "n"].contains(word) { return .cancel }
            console.line(sentenceCatalog.sentence("conflict.retry", .text(words.joined(separator: ", ")), in: .cli))
        }
    }

    private static func describe(_ choice: ImportChoice) -> String {
        switch choice {
        case .replace: sentenceCatalog.sentence("conflict.choice.replace", in: .cli)
        case .keepBoth: sentenceCatalog.sentence("conflict.choice.keepBoth", in: .cli)
        case .cancel: sentenceCatalog.sentence("conflict.choice.cancel", in: .cli)
        }
    }
}

/// What `--on-conflict` says to do when the offered account collides with a stored one.
enum ConflictAnswer: Equatable {
    case replace, keepBoth, cancel
}

/// The collision question's markers, recognised by the demo.
package enum ConflictPrompt {
    package static let markers = ["[replace/keep/cancel] ", "[replace/cancel] ", "[keep/cancel] ", "[cancel] "]
}

/// A prepared import the person settles a conflict of: the reference store's and a
/// Thunderbird profile's.
protocol ChoosingPreparation: AccountImportPreparation {
    /// The stored accounts the offer conflicts with; `nil` when it can simply be added.
    var conflict: ImportConflict? { get }
    /// The choices the person may make.
    var allowedChoices: [ImportChoice] { get }
    /// Records the person's choice.
    func choose(_ choice: ImportChoice) throws(ImportError)
}

extension PreparedImport: ChoosingPreparation {
    var allowedChoices: [ImportChoice] { conflict?.allowedChoices ?? [.cancel] }
}

/// Where an import puts the account, for the progress line.
struct ImportDestination {
    /// Whether the account is checked with its mail server first.
    let validates: Bool
    /// "in DIR", "into the Thunderbird profile NAME".
    let place: String
    /// After an import: where the account and its password now are, for the person.
    var whereKept: @Sendable (AccountMetadata) async -> String? = { _ in nil }
    /// After a failed import: advice that only this tool can give, if any.
    var adviceAfterFailure: @Sendable () -> String? = { nil }
}
