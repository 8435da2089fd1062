#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// `handoff demo`: a real transfer between two OS processes on 127.0.0.1. This process starts
/// `handoff send` with a demo account and a random password, reads the transfer code from its
/// output, starts `handoff receive` with it, relays each side's questions to the person one at
/// a time (or passes `--yes`), and finally shows what the receiver stored, password redacted.
enum DemoCommand {
    static let specification = ArgumentSpecification(
        command: "demo", valueOptions: ["--store", "--ecc", "--qr-style"], flags: ["--yes"],
        positionals: 0...0, positionalName: "no arguments")

    /// Lifetime of the demo's transfer code.
    static let lifetime = 120

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        _ = try OptionValues.errorCorrection(parsed, command: "demo")
        _ = try OptionValues.palette(parsed, command: "demo")
        let started = ContinuousClock.now
        Interrupt.install()
        let autoConfirm = parsed.has("--yes")
        let files = try DemoFiles.create()
        defer {
            files.password.wipe()
            files.remove()
        }
        let store = parsed.value("--store").map { URL(fileURLWithPath: $0) } ?? files.directory.appendingPathComponent("store")
        let executable = ownExecutable()

        console.line("AccountHandoff demo: two processes on this machine transfer a demo account over 127.0.0.1.")
        console.line("The demo password is random and is never shown.\(autoConfirm ? " Every question is answered yes (--yes)." : " Answer each side's questions with yes, no or cancel.")")
        console.line("")

        var senderArguments = ["send", "--account", files.accountFile.path, "--password-file", files.passwordFile.path,
                               "--lifetime", String(lifetime)]
        for option in ["--ecc", "--qr-style"] { if let value = parsed.value(option) { senderArguments += [option, value] } }
        if autoConfirm { senderArguments.append("--yes") }
        let payloadBox = PayloadBox()
        let sender = DemoChild(label: "sender  ", executable: executable, arguments: senderArguments, console: console) { line in
            payloadBox.offer(line)
        }
        do { try sender.start() } catch {
            throw CLIError("Cannot start the sending process (\(executable.path)); rebuild with 'swift build' and try again.", exitCode: .failure)
        }

        if !autoConfirm { input.startAnswerReader() }
        var receiver: DemoChild?
        var interrupted = false
        while true {
            if Interrupt.requested, !interrupted {
                interrupted = true
                sender.interrupt()
                receiver?.interrupt()
            }
            if receiver == nil, let payload = payloadBox.payload {
                var receiverArguments = ["receive", payload, "--store", store.path]
                if autoConfirm { receiverArguments.append("--yes") }
                let child = DemoChild(label: "receiver", executable: executable, arguments: receiverArguments, console: console) { _ in }
                do { try child.start() } catch {
                    sender.interrupt()
                    throw CLIError("Cannot start the receiving process (\(executable.path)); rebuild with 'swift build' and try again.", exitCode: .failure)
                }
                receiver = child
            }
            for child in [sender] + (receiver.map { [$0] } ?? []) {
                if let prompt = child.nextPrompt() { relay(prompt, to: child, input: input, console: console) }
            }
            if sender.isFinished, receiver?.isFinished ?? true { break }
            usleep(20_000)
        }

        let senderCode = sender.exitCode
        let receiverCode = receiver?.exitCode ?? ExitCode.failure.rawValue
        console.line("")
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard senderCode == 0, receiverCode == 0 else {
            console.error("The demo transfer did not complete (sender exit code \(senderCode), receiver exit code \(receiverCode)); see the messages above.")
            return ExitCode(rawValue: receiverCode != 0 ? receiverCode : senderCode) ?? .failure
        }
        try showImported(files: files, store: store, keepStore: parsed.value("--store") != nil, console: console)
        console.line(String(format: "The demo finished in %.2f s.", seconds))
        return .success
    }

    /// Shows one question of a child to the person and forwards the answer.
    private static func relay(_ prompt: String, to child: DemoChild, input: StandardInput, console: Console) {
        console.raw("\(child.label) │ \(prompt)")
        while true {
            switch input.nextAnswer() {
            case .line(let answer):
                if isatty(STDIN_FILENO) == 0 { console.raw(answer + "\n") }  // a terminal echoed it already
                child.answer(answer)
                return
            case .endOfInput:
                console.raw("\n")
                child.answer("cancel")
                return
            case nil:
                if Interrupt.requested || child.isFinished {
                    console.raw("\n")
                    return
                }
                usleep(20_000)
            }
        }
    }

    /// Prints the account the receiver stored, with the password redacted, after checking
    /// that the stored password is the one that was sent.
    private static func showImported(files: DemoFiles, store: URL, keepStore: Bool, console: Console) throws(CLIError) {
        let accountStore = AccountStore(directory: store)
        let linkID = files.account.linkID
        let stored: AccountMetadata
        do {
            stored = try AccountRecord.load(accountStore.metadataURL(linkID).path)
        } catch {
            throw CLIError("The receiver reported success but its store has no readable account: \(error.message)", exitCode: .failure)
        }
        let credentialPath = accountStore.credentialURL(linkID).path
        guard let credential = try PasswordFile.read(credentialPath, maximumByteCount: SendCommand.maximumPasswordByteCount, console: console) else {
            throw CLIError("The receiver's credential file \(credentialPath) is empty.", exitCode: .failure)
        }
        defer { credential.wipe() }
        var status = stat()
        let mode = stat(credentialPath, &status) == 0 ? "0" + String(status.st_mode & 0o777, radix: 8) : "unknown"
        console.line("Imported account, as stored by the receiver:")
        Describe.account(stored).forEach { console.line($0) }
        console.line("  Password: (redacted)")
        console.line("  Credential file: mode \(mode), \(credential.constantTimeEquals(files.password) ? "identical to the password that was sent" : "DIFFERENT from the password that was sent")")
        console.line("  Link ID preserved: \(stored == files.account ? "yes" : "NO")")
        console.line(keepStore ? "The store is kept in \(store.path)." : "The demo's temporary store was removed.")
        guard credential.constantTimeEquals(files.password), stored == files.account else {
            throw CLIError("The stored account does not match what was sent; this is a bug, please report it.", exitCode: .failure)
        }
    }

    /// The path of this very program, so the children run the same build.
    private static func ownExecutable() -> URL {
        let procSelf = URL(fileURLWithPath: "/proc/self/exe")
        if FileManager.default.fileExists(atPath: procSelf.path) { return procSelf.resolvingSymlinksInPath() }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}

/// The transfer code, once the sender printed it. Written by a reader thread, read by the loop.
final class PayloadBox: @unchecked Sendable {
    // Safety of @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: String?

    /// Looks for `Transfer code: AH:...` in a line of the sender's output.
    func offer(_ line: String) {
        let prefix = "Transfer code: "
        guard line.hasPrefix(prefix) else { return }
        lock.lock()
        defer { lock.unlock() }
        if value == nil { value = String(line.dropFirst(prefix.count)) }
    }

    var payload: String? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
