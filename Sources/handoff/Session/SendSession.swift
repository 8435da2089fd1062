#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffTransport
import Foundation

/// Drives a ``HandoffSender`` with the local transport, the terminal and the clock: the
/// sans-IO session decides, this loop does the I/O. One thread, woken every 100 ms to serve
/// the network, the person's answers, Ctrl-C and the expiry.
final class SendSession {
    private enum Question { case confirmCode, approveExport }

    private let sender: HandoffSender
    private let account: AccountMetadata
    private let listener: FrameListener
    private let console: Console
    private let input: StandardInput
    private let autoConfirm: Bool
    private var credential: SecretBytes?
    private var peer: FrameListener.ConnectionID?
    private var question: Question?
    private var shortCode: ShortCode?

    /// - Parameter credential: handed to the session only after the person approves the
    ///   export; wiped when the loop ends in any case.
    init(sender: HandoffSender, account: AccountMetadata, listener: FrameListener, credential: SecretBytes,
         console: Console, input: StandardInput, autoConfirm: Bool) {
        self.sender = sender
        self.account = account
        self.listener = listener
        self.credential = credential
        self.console = console
        self.input = input
        self.autoConfirm = autoConfirm
    }

    /// Runs until the session ends and returns the exit code.
    func run() -> ExitCode {
        if !autoConfirm { input.startAnswerReader() }
        while sender.outcome == nil {
            if Interrupt.requested {
                question = nil
                console.line("")
                console.line("Cancelling the transfer (interrupted).")
                perform(.cancel)
                break
            }
            if question != nil {
                answerQuestion()
                continue
            }
            serveNetwork(timeout: .milliseconds(100))
        }
        if question != nil, !autoConfirm { console.raw("\n") }  // the peer ended it while we asked
        credential?.wipe()
        listener.close()
        let result = Describe.outcome(sender.outcome ?? .failed(.transportLost), role: .sender)
        result.exitCode == .success ? console.line(result.message) : console.error(result.message)
        return result.exitCode
    }

    // MARK: Network

    private func serveNetwork(timeout: Duration) {
        let event: FrameListener.Event?
        do { event = try listener.next(timeout: timeout) } catch {
            console.error(error.description)
            perform(.transportLost)
            return
        }
        switch event {
        case .connected(let connection):
            if peer == nil { console.line("A device connected (connection \(connection)); checking that it scanned this code...") }
        case .frame(let connection, let bytes):
            perform(.frameReceived(bytes), from: connection)
        case .disconnected(let connection, let error):
            if connection == peer {
                console.error(error.description)
                perform(.transportLost)
            } else if peer == nil {
                console.line("Connection \(connection) closed before joining the transfer; still waiting for the receiving device.")
            }
        case nil:
            perform(.tick)
        }
    }

    // MARK: Session

    private func perform(_ first: HandoffSender.Event, from source: FrameListener.ConnectionID? = nil) {
        var queue = [first]
        while !queue.isEmpty {
            let event = queue.removeFirst()
            let actions: [HandoffAction]
            do { actions = try sender.handle(event, now: Date()) } catch {
                if sender.outcome == nil { console.error("Internal error: \(error.description)") }
                return
            }
            for action in actions {
                if let next = apply(action, from: source) { queue.append(next) }
            }
        }
    }

    /// Carries out one action; returns an event to feed next, if any.
    private func apply(_ action: HandoffAction, from source: FrameListener.ConnectionID?) -> HandoffSender.Event? {
        switch action {
        case .send(let bytes):
            guard let peer else { return nil }
            do { try listener.send(bytes, to: peer) } catch {
                console.error(error.description)
                return sender.outcome == nil ? .transportLost : nil
            }
        case .showShortCode(let code):
            peer = source
            shortCode = code
            console.line("The receiving device joined. Short code: \(code.grouped) (\(code.spoken)).")
            ask(.confirmCode)
        case .requestCredential:
            console.line("The receiving device accepted the account.")
            ask(.approveExport)
        case .ignored(let error):
            if let source, source != peer {
                listener.disconnect(source)
                console.line("Ignored a message from connection \(source), which is not part of this transfer (\(error.identifier)); closed that connection.")
            } else {
                console.line("Ignored an invalid message from the receiving device (\(error.identifier)).")
            }
        case .finished, .showAccount, .deliverAccount:
            break
        }
        return nil
    }

    // MARK: Questions

    private func text(of question: Question) -> String {
        switch question {
        case .confirmCode:
            "Does the receiving device show the code \(shortCode?.grouped ?? "")?"
        case .approveExport:
            "Send the password of \(account.emailAddress) to the receiving device now?"
        }
    }

    private func ask(_ question: Question) {
        self.question = question
        if !autoConfirm { Prompt.ask(text(of: question), console: console) }
    }

    private func answerQuestion() {
        guard let question else { return }
        let decision: Prompt.Decision
        if autoConfirm {
            console.line(text(of: question) + " yes (--yes)")
            decision = .yes
        } else {
            switch input.nextAnswer() {
            case nil:
                serveNetwork(timeout: .milliseconds(100))  // keep the network served while the person decides
                return
            case .endOfInput:
                console.raw("\n")
                console.line("Standard input ended before an answer; cancelling the transfer.")
                decision = .cancel
            case .line(let answer):
                guard let parsed = Prompt.decision(answer) else {
                    if isatty(STDIN_FILENO) == 0 { console.raw("\n") }
                    console.line("Please answer yes, no or cancel.")
                    Prompt.ask(text(of: question), console: console)
                    return
                }
                if isatty(STDIN_FILENO) == 0 { console.raw("\(answer)\n") }
                decision = parsed
            }
        }
        self.question = nil
        switch (question, decision) {
        case (.confirmCode, .yes):
            console.line("Sending the account details (encrypted); waiting for the receiving device to accept...")
            perform(.codeConfirmed)
        case (.approveExport, .yes):
            guard let credential else { return }
            self.credential = nil  // the session wipes it once it is encrypted
            perform(.credentialProvided(credential))
            if sender.outcome == nil { console.line("Password sent (encrypted); waiting for the receiving device to store it...") }
        case (_, .no):
            perform(.codeRejected)
        case (_, .cancel):
            perform(.cancel)
        }
    }
}
