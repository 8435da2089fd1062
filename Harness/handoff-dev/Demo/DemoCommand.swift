#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HandoffCLI
import AccountHandoff
import AccountHandoffDovecot
import Foundation

/// `handoff-dev demo`: a real transfer between two OS processes on 127.0.0.1. This process starts
/// `handoff send` (the `handoff` built next to this tool) with a demo account and a random password, reads the transfer code from its
/// output and hands it to `handoff receive` on its standard input (never on a command line),
/// then relays each side's questions to the person one at a time, or, with `--yes`, answers
/// them itself by typing the code each side shows into the other (both ends are its own
/// processes). Finally it shows what the receiver stored, password redacted.
enum DemoCommand {
    static let specification = CommandManual.demo.specification

    /// Lifetime of the demo's transfer code.
    static let lifetime = 120

    static func run(_ arguments: [String], console: Console, input: StandardInput) async throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        _ = try OptionValues.errorCorrection(parsed, command: "demo")
        _ = try OptionValues.palette(parsed, command: "demo")
        let started = ContinuousClock.now
        let automatic = parsed.has("--yes")
        let typed = parsed.has("--typed")
        if typed, parsed.has("--relay") {
            throw .usage("--typed pairs on the local network of the demo's namespaces; leave out --relay.", command: "demo")
        }
        var files = try DemoFiles.create()
        defer {
            files.password.wipe()
            files.remove()
        }
        let store = parsed.value("--store").map { URL(fileURLWithPath: $0) } ?? files.directory.appendingPathComponent("store")
        let executable = try handoffExecutable()

        let hosts = typed ? try await DemoHosts.start(console: console) : nil
        defer { hosts?.stop() }
        if hosts == nil {
            console.line("AccountHandoff demo: two processes on this machine transfer a demo account over 127.0.0.1.")
        }
        console.line("The demo password is random and is never shown.\(automatic ? " The demo answers both sides itself (--yes): it types the code the receiving side shows into the sending side, accepts, and confirms it is you." : " Answer each side's questions: type the code the receiving side shows into the sending side.")")
        let gate = typed ? nil : DemoGate.make()
        if typed {
            console.line("Both sides run with --no-local-auth and --no-validation: the namespaces reach neither the demo's PAM setup nor its mail server.")
        } else if gate != nil {
            console.line("Each side asks for your login password before the password travels (its local-authentication gate, PAM). The demo runs both under a throwaway PAM setup (pam_wrapper) whose login password is '\(DemoGate.password)'; your real login is not touched.")
        } else {
            console.line("Debian's libpam-wrapper is missing, so the demo runs both sides with --no-local-auth (no local-authentication gate); Scripts/setup.sh installs it.")
        }
        let transitRelay = parsed.has("--relay") ? try await DemoRelay.start(console: console) : nil
        defer { transitRelay?.stop() }
        let mailServer = typed ? nil : DemoMailServer.start(password: files.password, console: console)
        defer { mailServer?.stop() }
        if let mailServer { files = try files.pointing(at: DemoFiles.MailServer(host: mailServer.host, port: mailServer.tlsPort)) }
        console.line("")

        let gateArguments = gate == nil ? ["--no-local-auth"] : []
        var senderArguments = ["send", "--account", files.accountFile.path, "--password-file", files.passwordFile.path,
                               "--lifetime", String(lifetime)] + gateArguments + (transitRelay.map(DemoRelay.senderArguments) ?? [])
            + (hosts.map { ["--address", $0.hosts.host(DemoHosts.sender).address, "--lan"] } ?? [])
        for option in ["--ecc", "--qr-style"] { if let value = parsed.value(option) { senderArguments += [option, value] } }
        let seen = DemoTranscript()
        let (senderProgram, senderCommand) = try hosts?.command(in: DemoHosts.sender, executable, senderArguments) ?? (executable, senderArguments)
        let sender = DemoChild(label: "sender  ", executable: senderProgram, arguments: senderCommand,
                               environment: hosts?.environment(of: DemoHosts.sender) ?? gate?.environment, console: console) { line in
            seen.read(line, from: .sender)
        }
        // Starting under the PAM start lock waits (a file lock, the child's first line): on the I/O pool.
        do { if gate != nil { try await BlockingIOPool.shared.run { _ in try DemoGate.start(sender) } } else { try sender.start() } } catch {
            throw CLIError("Cannot start the sending process (\(executable.path)); rebuild with 'swift build --product handoff' and try again.", exitCode: .failure)
        }
        let interrupts = Signals.interrupts()
        let forwardInterrupts = Task { for await _ in interrupts { seen.interrupt() } }
        defer { forwardInterrupts.cancel() }
        let answers = automatic ? nil : AnswerQueue(input: input)
        await answers?.onCancel { seen.interrupt() }
        var receiver: DemoChild?
        var interrupted = false
        while true {
            if seen.interrupted, !interrupted {
                interrupted = true
                sender.interrupt()
                receiver?.interrupt()
            }
            if receiver == nil, let code = typed ? seen.typedCode : seen.transferCode {
                let validation = mailServer.map { ["--ca-file", $0.caFile.path] } ?? ["--no-validation"]
                let receiverArguments = ["receive", "--store", store.path, "--credentials", "files"] + validation + gateArguments
                let (program, command) = try hosts?.command(in: DemoHosts.receiver, executable, receiverArguments) ?? (executable, receiverArguments)
                if typed { console.line("The demo types the code \(code) into the receiving side.") }
                let child = DemoChild(label: "receiver", executable: program, arguments: command,
                                      environment: hosts?.environment(of: DemoHosts.receiver) ?? gate?.environment, console: console) { line in
                    seen.read(line, from: .receiver)
                }
                // The code travels on the child's standard input, not its command line.
                do {
                    if gate != nil { try await BlockingIOPool.shared.run { _ in try DemoGate.start(child) { child.answer(code) } } } else {
                        try child.start()
                        child.answer(code)
                    }
                } catch {
                    sender.interrupt()
                    throw CLIError("Cannot start the receiving process (\(executable.path)); rebuild with 'swift build --product handoff' and try again.", exitCode: .failure)
                }
                receiver = child
            }
            for (child, side) in [(sender, DemoTranscript.Side.sender)] + (receiver.map { [($0, .receiver)] } ?? []) {
                guard let prompt = child.nextPrompt() else { continue }
                if let answers {
                    await relay(prompt, to: child, answers: answers, input: input, console: console, seen: seen)
                } else {
                    await answerAutomatically(prompt, to: child, side: side, seen: seen, console: console)
                }
            }
            if sender.isFinished, receiver?.isFinished ?? true { break }
            // A receiver that ended first (a store it cannot use, say) leaves nobody to scan
            // the code: stop the sender rather than wait for its expiry.
            if let receiver, receiver.isFinished, !sender.isFinished, !interrupted {
                interrupted = true
                sender.interrupt()
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        await answers?.abandonWaiting()

        let senderCode = sender.exitCode
        let receiverCode = receiver?.exitCode ?? ExitCode.failure.rawValue
        console.line("")
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard senderCode == 0, receiverCode == 0 else {
            console.error("The demo transfer did not complete (sender exit code \(senderCode), receiver exit code \(receiverCode)); see the messages above.")
            return ExitCode(rawValue: receiverCode != 0 ? receiverCode : senderCode) ?? .failure
        }
        let keepStore = parsed.value("--store") != nil
        try await blockingStep { [files] () throws(CLIError) in try DemoReport.showImported(files: files, store: store, keepStore: keepStore, console: console) }
        console.line(String(format: "The demo finished in %.2f s.", seconds))
        return .success
    }

    /// Answers one question the way the person would: the code the receiving side shows, the
    /// throwaway login password, replace, or yes.
    private static func answerAutomatically(_ prompt: String, to child: DemoChild, side: DemoTranscript.Side,
                                            seen: DemoTranscript, console: Console) async {
        let answer: String
        if prompt.hasSuffix(TerminalPAMConversation.marker) {
            console.raw("\(child.label) │ \(DemoWording.loginQuestionAnswered)\n")
            child.answer(DemoGate.password)
            return
        } else if prompt.hasSuffix(Prompt.codeMarker) {
            var shown = seen.shortCode(shownBy: .receiver)
            for _ in 0..<500 where shown == nil && !child.isFinished {
                try? await Task.sleep(nanoseconds: 10_000_000)
                shown = seen.shortCode(shownBy: .receiver)
            }
            answer = shown ?? "cancel"
        } else if ConflictPrompt.markers.contains(where: prompt.hasSuffix) {
            answer = "replace"
        } else {
            answer = "yes"
        }
        console.raw("\(child.label) │ \(prompt)\(answer) (answered by the demo)\n")
        child.answer(answer)
    }

    /// Shows one question of a child to the person and forwards the answer.
    private static func relay(_ prompt: String, to child: DemoChild, answers: AnswerQueue, input: StandardInput,
                              console: Console, seen: DemoTranscript) async {
        let secret = prompt.hasSuffix(Prompt.loginPasswordMarker)
        await answers.openQuestion(secret: secret)
        console.ask("\(child.label) │ \(secret ? DemoWording.loginQuestion : prompt)")
        // Cancelled once the answer arrived: a cancelled sleep returns at once, so the loop
        // must stop on cancellation, or it spins and starves the demo's other tasks.
        let waiting = Task {
            while !Task.isCancelled, !child.isFinished, !seen.interrupted { try? await Task.sleep(nanoseconds: 20_000_000) }
            if !Task.isCancelled { await answers.abandonWaiting() }
        }
        defer {
            waiting.cancel()
            Task { await answers.closeQuestion() }
        }
        switch await answers.next() {
        case .line(let secretLine) where secret:
            console.answered(echo: "\n")
            child.answer(secret: secretLine)
        case .line(let line):
            let text = AnswerQueue.text(line, wipe: true)
            console.answered(echo: input.isTerminal ? "" : text + "\n")  // a terminal echoed it already
            child.answer(text)
        case .endOfInput:
            console.answered(echo: "\n")
            child.answer("cancel")
        case .abandoned:
            console.answered(echo: "\n")
        }
    }

    /// The path of this very program, so the children run the same build.
    /// The `handoff` that `swift build` put next to this tool: the program people run.
    private static func handoffExecutable() throws(CLIError) -> URL {
        let procSelf = URL(fileURLWithPath: "/proc/self/exe")
        let own = FileManager.default.fileExists(atPath: procSelf.path) ? procSelf.resolvingSymlinksInPath()
            : Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let handoff = own.deletingLastPathComponent().appendingPathComponent("handoff")
        guard FileManager.default.isExecutableFile(atPath: handoff.path) else {
            throw CLIError("The demo runs the handoff program built next to handoff-dev, and there is none at \(handoff.path); "
                           + "build it with 'swift build --product handoff', then try again.", exitCode: .failure)
        }
        return handoff
    }
}

/// What the demo read in its children's output: the transfer code and each side's short code.
/// Written by reader threads, read by the demo's loop.
final class DemoTranscript: @unchecked Sendable {
    // Safety of @unchecked Sendable: every property is only touched under `lock`.
    enum Side { case sender, receiver }

    private let lock = NSLock()
    private var code: String?
    private var typed: String?
    private var codes: [Side: String] = [:]
    /// How the sender shows its typed code beside the QR.
    static let typedCodePrefix = PrintedMarkers.typedCode
    private var wasInterrupted = false

    func read(_ line: String, from side: Side) {
        lock.withLock {
            if side == .sender, code == nil, line.hasPrefix(PrintedMarkers.transferCode) {
                code = String(line.dropFirst(PrintedMarkers.transferCode.count))
            }
            if side == .sender, typed == nil, line.hasPrefix(Self.typedCodePrefix) {
                typed = String(line.dropFirst(Self.typedCodePrefix.count).prefix(13))
            }
            if let range = line.range(of: PrintedMarkers.shortCode) {
                let digits = line[range.upperBound...].prefix(7)
                if digits.count == 7 { codes[side] = String(digits) }
            }
        }
    }

    func interrupt() { lock.withLock { wasInterrupted = true } }
    var interrupted: Bool { lock.withLock { wasInterrupted } }
    var transferCode: String? { lock.withLock { code } }
    /// The typed code the sender shows first (`NNN SSSS SSSC`).
    var typedCode: String? { lock.withLock { typed } }
    func shortCode(shownBy side: Side) -> String? { lock.withLock { codes[side] } }
}
