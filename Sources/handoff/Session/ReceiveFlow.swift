import AccountHandoff
import AccountHandoffImport
import Foundation

/// The terminal side of a receiver session: it prints what the session reports, shows the
/// offered account (framed, Spec 3.7), settles a collision with a stored account before the
/// password travels, asks the person to compare the code (or type the code the sending
/// device shows), forwards Ctrl-C as a cancel, and turns the outcome into a sentence and an
/// exit code.
struct ReceiveFlow {
    let session: HandoffReceiverSession
    let importer: ReceiverImport
    /// The answer to a collision given on the command line, if any.
    let presetConflictChoice: ConflictAnswer?
    let console: Console
    let input: StandardInput

    func run() async -> ExitCode {
        let session = self.session
        let outcome = await TerminalSessionRun.run(console: console, input: input, cancel: { await session.cancel() },
                                                   show: { await show(asking: $0, answers: $1) }, session: { await session.run() })
        let code = ExitCode(outcome)
        code == .success ? console.line(outcome.message) : console.error(outcome.message)
        return code
    }

    private func show(asking: Asking, answers: AnswerQueue) async {
        var question: Task<Void, Never>?
        for await update in session.updates {
            switch update {
            case .connected:
                console.line("Connected; waiting for the sending device to reveal its part of the code...")
            case .codeReady(let code):
                console.line("Short code: \(code.grouped) (\(code.spoken)). Compare it with the sending device.")
                console.line("Waiting for the sending device to confirm the code...")
            case .accountOffered(let account):
                console.line("The sending device offers this account:")
                OfferDisplay.lines(account).forEach { console.line($0) }
                question = Task { await review(account, asking: asking) }
            case .accepted:
                console.line("Accepted; waiting for the password (encrypted)...")
            case .importing(let account):
                console.line("Checking the account with its mail server \(account.imapHost):\(account.imapPort) and storing it in \(importer.store.directory.path)...")
            case .framesIgnored(let count, let last):
                console.line(IgnoredFrames.sentence(count: count, last: last))
            case .finished(let outcome):
                await answers.abandonWaiting()
                await question?.value
                if case .ended = outcome { importer.abandon() }
            }
        }
    }

    /// Settles a collision, then asks for the code; only then does the receiver accept.
    private func review(_ account: AccountMetadata, asking: Asking) async {
        do throws(CLIError) {
            if let conflict = try importer.prepare(account) {
                let choice = await choose(for: conflict, asking: asking)
                try importer.choose(choice)
                guard choice != .cancel else {
                    try? await session.reject()
                    return
                }
            }
        } catch {
            console.error(error.message)
            try? await session.reject()
            return
        }
        guard let code = await session.shortCode else { return }
        let question = "Does the sending device show the code \(code.grouped), and do you want to import this account? Type the code it shows, or yes, no or cancel."
        guard let answer = await asking.ask(question, acceptsCode: true) else { return }
        do throws(HandoffError) {
            switch answer {
            case .typedCode(let typed):
                guard try await session.accept(typedCode: typed) else {
                    console.line("The code you typed differs from \(code.grouped); the transfer is stopped.")
                    return
                }
            case .yes: try await session.accept()
            case .no: try await session.reject()
            case .cancel: await session.cancel()
            }
        } catch {
            console.error(error.message(for: .receiver))
        }
    }

    /// Shows the offered and the stored accounts side by side and gets the person's choice
    /// (or the one given with `--on-conflict`).
    private func choose(for conflict: ImportConflict, asking: Asking) async -> ImportChoice {
        console.line("This device already has \(conflict.existing.count == 1 ? "an account" : "accounts") like it:")
        for stored in conflict.existing {
            let why = stored.reasons.contains(.sameLinkID) ? "the same account (same link ID)" : "the same address on the same server"
            console.line("  Stored account \(stored.account.id.rawValue), \(why):")
            OfferDisplay.comparison(stored.comparison).forEach { console.line($0) }
        }
        let replace = conflict.allowedChoices.first { if case .replace = $0 { true } else { false } }
        let canKeepBoth = conflict.allowedChoices.contains(.keepBoth)
        if let preset = presetConflictChoice {
            let chosen: ImportChoice = switch preset {
            case .replace: replace ?? .cancel
            case .keepBoth: canKeepBoth ? .keepBoth : .cancel
            case .cancel: .cancel
            }
            console.line("Chosen with --on-conflict: \(Self.describe(chosen)).")
            if preset == .keepBoth, !canKeepBoth {
                console.line("Keeping both is not possible for the same account (the same link ID), so the import is cancelled.")
            }
            return chosen
        }
        let options = [replace != nil ? "replace it (replace)" : nil, canKeepBoth ? "keep both (keep)" : nil, "cancel the import (cancel)"]
        let question = "What should happen: " + options.compactMap { $0 }.joined(separator: ", ") + "?"
        await asking.answers.openQuestion()
        defer { Task { [answers = asking.answers] in await answers.closeQuestion() } }
        while true {
            console.raw(console.prefix + question + " " + ConflictPrompt.marker)
            switch await asking.answers.next() {
            case .abandoned, .endOfInput:
                console.raw("\n")
                return .cancel
            case .line(let line):
                if !input.isTerminal { console.raw(line + "\n") }
                let word = line.lowercased()
                if let replace, ["replace", "r"].contains(word) { return replace }
                if canKeepBoth, ["keep", "keep both", "keep-both", "k"].contains(word) { return .keepBoth }
                if ["cancel", "c", "no", "n"].contains(word) { return .cancel }
                console.line("Please answer with one of the choices in brackets.")
            }
        }
    }

    private static func describe(_ choice: ImportChoice) -> String {
        switch choice {
        case .replace: "replace the stored account"
        case .keepBoth: "keep both"
        case .cancel: "cancel the import"
        }
    }
}

/// What `--on-conflict` says to do when the offered account collides with a stored one.
enum ConflictAnswer: Equatable {
    case replace, keepBoth, cancel
}

/// The collision question's marker, recognised by the demo.
enum ConflictPrompt {
    static let marker = "[replace/keep/cancel] "
}
