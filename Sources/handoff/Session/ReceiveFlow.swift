import AccountHandoff
import Foundation

/// The terminal side of a receiver session: it prints what the session reports, shows the
/// offered account (framed, Spec 3.7), settles a collision with a stored account before the
/// password travels, asks the person to compare the code (or type the code the sending
/// device shows), forwards Ctrl-C as a cancel, and turns the outcome into a sentence and an
/// exit code.
struct ReceiveFlow {
    let session: HandoffReceiverSession
    let store: any ReceiverStore
    let choiceBox: ImportChoiceBox
    /// The answer to a collision given on the command line, if any.
    let presetConflictChoice: ImportChoice??
    let console: Console
    let input: StandardInput

    func run() async -> ExitCode {
        let session = self.session
        let answers = AnswerQueue(input: input, console: console) {
            console.line("Cancelling the transfer (you typed cancel).")
            await session.cancel()
        }
        let asking = Asking(console: console, input: input, answers: answers)
        let interrupts = Task {
            for await _ in Signals.interrupts() {
                console.line("")
                console.line("Cancelling the transfer (interrupted).")
                await session.cancel()
            }
        }
        let updates = Task { await show(asking: asking, answers: answers) }
        let outcome = await session.run()
        await updates.value
        interrupts.cancel()
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
            case .importing:
                console.line("Storing the account in \(store.location)...")
            case .framesIgnored(let count, let last):
                console.line(IgnoredFrames.sentence(count: count, last: last))
            case .finished:
                await answers.abandonWaiting()
                await question?.value
            }
        }
    }

    /// Settles a collision, then asks for the code; only then does the receiver accept.
    private func review(_ account: AccountMetadata, asking: Asking) async {
        do throws(CLIError) {
            try store.checkUsable()
            let conflicts = try store.conflicts(with: account)
            guard let choice = await choose(for: conflicts, asking: asking) else {
                try? await session.reject()
                return
            }
            choiceBox.set(choice)
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

    /// `nil` when the person (or `--on-conflict cancel`) chose not to import.
    private func choose(for conflicts: [StoredAccount], asking: Asking) async -> ImportChoice? {
        guard !conflicts.isEmpty else { return .add }
        console.line("This device already has \(conflicts.count == 1 ? "an account" : "accounts") like it:")
        for stored in conflicts {
            OfferDisplay.lines(stored.metadata).forEach { console.line($0) }
        }
        if let preset = presetConflictChoice {
            console.line(preset.map { "Chosen with --on-conflict: \($0 == .replace ? "replace it" : "keep both")." } ?? "Chosen with --on-conflict: cancel.")
            return preset
        }
        await asking.answers.openQuestion()
        defer { Task { [answers = asking.answers] in await answers.closeQuestion() } }
        while true {
            let question = "Replace the stored account with the offered one (replace), keep both (keep), or cancel the import (cancel)?"
            console.raw(console.prefix + question + " " + ConflictPrompt.marker)
            switch await asking.answers.next() {
            case .abandoned:
                console.raw("\n")
                return nil
            case .endOfInput:
                console.raw("\n")
                return nil
            case .line(let line):
                if !input.isTerminal { console.raw(line + "\n") }
                switch line.lowercased() {
                case "replace", "r": return .replace
                case "keep", "keep both", "keep-both", "k": return .keepBoth
                case "cancel", "c", "no", "n": return nil
                default: console.line("Please answer replace, keep or cancel.")
                }
            }
        }
    }
}

/// The collision question's marker, recognised by the demo.
enum ConflictPrompt {
    static let marker = "[replace/keep/cancel] "
}

/// The person's import choice, made before the password travels and read by the importer
/// when it arrives.
final class ImportChoiceBox: @unchecked Sendable {
    // Safety of @unchecked Sendable: `choice` is only touched under `lock`.
    private let lock = NSLock()
    private var choice: ImportChoice = .add

    func set(_ value: ImportChoice) { lock.withLock { choice = value } }
    var value: ImportChoice { lock.withLock { choice } }
}

/// An importer that reads the person's choice when the account arrives.
struct ChoiceImporter: AccountImporter {
    let store: any ReceiverStore
    let choice: ImportChoiceBox
    let console: Console

    func importAccount(_ account: ImportedAccount) async -> ReceiptStatus {
        await store.importer(choice.value, console: console).importAccount(account)
    }
}
