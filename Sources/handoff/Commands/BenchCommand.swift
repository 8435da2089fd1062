import AccountHandoff
import AccountHandoffQR
import Foundation

/// `handoff bench [--iterations N]`: times a whole in-memory session through both state
/// machines and reports it as a ratio of the raw libsodium work of one session, measured in
/// the same run on the same machine. Absolute times vary by machine; the ratio is the number
/// to watch.
enum BenchCommand {
    static let specification = ArgumentSpecification(
        command: "bench", valueOptions: ["--iterations"], flags: [], positionals: 0...0, positionalName: "")

    static func run(_ arguments: [String], console: Console) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let iterations = Int(parsed.value("--iterations") ?? "300") ?? 0
        guard (1...100_000).contains(iterations) else {
            throw .usage("--iterations takes a whole number from 1 to 100000.", command: "bench")
        }
        let floor = SessionFloor(.typical)
        let baseline = measure(iterations) { floor.runOneSession() }
        let session = measure(iterations) { BenchSession.runOnce() }
        let payload = BenchSession.samplePayload
        let qrText = measure(iterations) { _ = try? SessionPayload(text: payload.text) }
        let qrMatrix = measure(max(1, iterations / 10)) { _ = try? QRMatrix(payload: payload) }
        console.line("AccountHandoff benchmarks: \(iterations) iterations, median per iteration, this machine, this run")
        console.line(row("raw libsodium work of one session (baseline)", baseline, baseline))
        console.line(row("full session, both state machines", session, baseline))
        console.line(row("QR text encode + strict decode", qrText, baseline))
        console.line(row("QR module matrix (libqrencode, level M)", qrMatrix, baseline))
        return .success
    }

    private static func row(_ name: String, _ seconds: Double, _ baseline: Double) -> String {
        let micros = String(format: "%9.1f µs", seconds * 1_000_000)
        let ratio = String(format: "%6.2fx baseline", seconds / baseline)
        return "  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(micros)  \(ratio)"
    }

    /// The median duration of `body` over `iterations` runs, after a short warm-up.
    private static func measure(_ iterations: Int, _ body: () -> Void) -> Double {
        for _ in 0..<min(10, iterations) { body() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return samples.sorted()[samples.count / 2]
    }
}

/// One complete transfer in memory with the production random source.
private enum BenchSession {
    static let account = try! AccountMetadata(
        linkID: AccountLinkID(uuid: UUID()), displayName: "Bench", emailAddress: "bench@example.org",
        username: "bench", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    static let rendezvous = try! RendezvousToken(bytes: [1, 2, 3, 4, 5, 6, 7, 8])
    static let samplePayload = try! HandoffSender.start(account: account, rendezvous: rendezvous,
                                                        random: SystemRandomSource(), now: Date()).payload

    static func runOnce() {
        let now = Date()
        let random = SystemRandomSource()
        do {
            let sender = try HandoffSender.start(account: account, rendezvous: rendezvous, random: random, now: now)
            let (receiver, hello) = try HandoffReceiver.scan(payload: sender.payload, random: random, now: now)
            let reveal = try sender.handle(.frameReceived(frame(hello.actions)), now: now)
            _ = try receiver.handle(.frameReceived(frame(reveal.actions)), now: now)
            let offer = try sender.handle(.codeConfirmed, now: now)
            _ = try receiver.handle(.frameReceived(frame(offer.actions)), now: now)
            let accept = try receiver.handle(.codeConfirmed, now: now)
            _ = try sender.handle(.frameReceived(frame(accept.actions)), now: now)
            let credential = try sender.handle(.credentialProvided(SecretBytes(utf8: "bench-password")), now: now)
            _ = try receiver.handle(.frameReceived(frame(credential.actions)), now: now)
            let receipt = try receiver.handle(.importFinished(.imported), now: now)
            let end = try sender.handle(.frameReceived(frame(receipt.actions)), now: now)
            guard case .finished(.completed(.imported)) = end.actions.last else { fatalError("benchmark session did not complete") }
        } catch {
            fatalError("benchmark session failed: \(error)")
        }
    }

    private static func frame(_ actions: [SenderAction]) -> [UInt8] {
        for case .send(let bytes) in actions { return bytes }
        fatalError("benchmark step sent no frame")
    }

    private static func frame(_ actions: [ReceiverAction]) -> [UInt8] {
        for case .send(let bytes) in actions { return bytes }
        fatalError("benchmark step sent no frame")
    }
}
