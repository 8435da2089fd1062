#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffTransport
import Foundation

/// Drives a ``HandoffReceiver`` with the local transport, the terminal, the store and the
/// clock. One thread, woken every 100 ms to serve the network, answers, Ctrl-C and the expiry.
final class ReceiveSession {
    private let receiver: HandoffReceiver
    private let connection: FrameConnection
    private let store: AccountStore
    private let replace: Bool
    private let console: Console
    private let input: StandardInput
    private let autoConfirm: Bool
    private var awaitingAnswer = false

    init(receiver: HandoffReceiver, connection: FrameConnection, store: AccountStore, replace: Bool,
         console: Console, input: StandardInput, autoConfirm: Bool) {
        self.receiver = receiver
        self.connection = connection
        self.store = store
        self.replace = replace
        self.console = console
        self.input = input
        self.autoConfirm = autoConfirm
    }

    /// Sends the hello produced by the scan, then runs until the session ends.
    func run(hello: [UInt8]) -> ExitCode {
        if !autoConfirm { input.startAnswerReader() }
        do { try connection.send(hello) } catch {
            console.error(error.description)
            perform(.transportLost)
        }
        if receiver.outcome == nil { console.line("Waiting for the sending device to confirm the code...") }
        while receiver.outcome == nil {
            if Interrupt.requested {
                awaitingAnswer = false
                console.line("")
                console.line("Cancelling the transfer (interrupted).")
                perform(.cancel)
                break
            }
            if awaitingAnswer {
                answer()
                continue
            }
            serveNetwork(timeout: .milliseconds(100))
        }
        if awaitingAnswer, !autoConfirm { console.raw("\n") }  // the peer ended it while we asked
        connection.close()
        let result = Describe.outcome(receiver.outcome ?? .failed(.transportLost), role: .receiver)
        result.exitCode == .success ? console.line(result.message) : console.error(result.message)
        return result.exitCode
    }

    private var question: String {
        "Does the sending device show the code \(receiver.shortCode.grouped), and do you want to import this account?"
    }

    // MARK: Network

    private func serveNetwork(timeout: Duration) {
        do {
            let frame = try connection.receive(timeout: timeout)
            perform(.frameReceived(frame))
        } catch .timedOut where !connection.isStalled {
            perform(.tick)
        } catch {
            console.error(error.description)
            perform(.transportLost)
        }
    }

    // MARK: Session

    private func perform(_ first: HandoffReceiver.Event) {
        var queue = [first]
        while !queue.isEmpty {
            let event = queue.removeFirst()
            let actions: [HandoffAction]
            do { actions = try receiver.handle(event, now: Date()) } catch {
                if receiver.outcome == nil { console.error("Internal error: \(error.description)") }
                return
            }
            for action in actions {
                if let next = apply(action) { queue.append(next) }
            }
        }
    }

    private func apply(_ action: HandoffAction) -> HandoffReceiver.Event? {
        switch action {
        case .send(let bytes):
            do { try connection.send(bytes) } catch {
                console.error(error.description)
                return receiver.outcome == nil ? .transportLost : nil
            }
        case .showAccount(let metadata):
            console.line("The sending device offers this account:")
            Describe.account(metadata).forEach { console.line($0) }
            if store.contains(metadata.linkID), !replace {
                console.line("An account with this link ID is already in \(store.directory.path); it is not replaced without --replace, so the import is declined before any password is sent.")
                return .codeRejected
            }
            if store.contains(metadata.linkID) {
                console.line("It replaces the account with the same link ID in \(store.directory.path) (--replace).")
            }
            awaitingAnswer = true
            if !autoConfirm { Prompt.ask(question, console: console) }
        case .deliverAccount(let imported):
            return .importFinished(save(imported))
        case .ignored(let error):
            console.line("Ignored an invalid message (\(error.identifier)).")
        case .showShortCode, .requestCredential, .finished:
            break
        }
        return nil
    }

    private func save(_ imported: ImportedAccount) -> ReceiptStatus {
        let id = imported.metadata.linkID
        do {
            let saved = try store.save(imported, replace: replace, now: Date())
            console.line("Stored the account in \(saved.path) and its password in \(store.credentialURL(id).path) (mode 0600; this file stands in for the Keychain).")
            return .imported
        } catch .accountExists {
            console.error("An account with this link ID appeared in \(store.directory.path) meanwhile; it was kept, and the import is declined. Use --replace to replace it.")
            return .declined
        } catch {
            console.error("The account could not be stored in \(store.directory.path) (\(error)); check that the directory is writable, then start a new transfer.")
            return .declined
        }
    }

    // MARK: Answers

    private func answer() {
        let decision: Prompt.Decision
        if autoConfirm {
            console.line(question + " yes (--yes)")
            decision = .yes
        } else {
            switch input.nextAnswer() {
            case nil:
                serveNetwork(timeout: .milliseconds(100))
                return
            case .endOfInput:
                console.raw("\n")
                console.line("Standard input ended before an answer; cancelling the transfer.")
                decision = .cancel
            case .line(let text):
                guard let parsed = Prompt.decision(text) else {
                    if isatty(STDIN_FILENO) == 0 { console.raw("\n") }
                    console.line("Please answer yes, no or cancel.")
                    Prompt.ask(question, console: console)
                    return
                }
                if isatty(STDIN_FILENO) == 0 { console.raw("\(text)\n") }
                decision = parsed
            }
        }
        awaitingAnswer = false
        switch decision {
        case .yes:
            console.line("Accepted; waiting for the password (encrypted)...")
            perform(.codeConfirmed)
        case .no:
            perform(.codeRejected)
        case .cancel:
            perform(.cancel)
        }
    }
}
