import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation

/// What every input of the machine world starts from, made once per process: the standard
/// scenario's sender just after its start and its receiver just after the scan (each input
/// plays copies), the sender's nonce and private key (known from its seed, so the world can
/// seal a reveal at sequence 0 itself), and frames of another transfer.
final class MachineFixtures: @unchecked Sendable {
    // Safety of @unchecked Sendable: the sessions here never handle an event; they are only
    // copied, which takes each secret's own lock. The fuzz loop is single-threaded anyway.
    static let shared: MachineFixtures = {
        do { return try MachineFixtures() } catch { fatalError("the machine world cannot start: \(error)") }
    }()

    let scenario = Scenario.standard
    let sender: HandoffSender
    let receiver: HandoffReceiver
    let hello: [UInt8]
    /// The sender's first 64 random bytes: its nonce, then its X25519 private key.
    let senderStream: [UInt8]
    let foreignFrames: [SessionRecording.RecordedFrame]
    /// A directory for registry files, on tmpfs when there is one (fsync costs nothing there).
    let scratchDirectory: String

    private init() throws {
        sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                         random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: scenario.start)
        let scanned = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: scenario.receiverSeed),
                                               now: scenario.start)
        guard case .send(let hello)? = scanned.step.actions.first else { throw InvariantViolation("the scan sent no hello") }
        receiver = scanned.receiver
        self.hello = hello
        var stream = [UInt8](repeating: 0, count: 64)
        let random = InsecureDeterministicRandom(seed: Scenario.standard.senderSeed)
        stream.withUnsafeMutableBytes { random.fill($0) }
        senderStream = stream
        foreignFrames = SessionRecording.foreign.frames
        scratchDirectory = Self.scratchPath
        Self.removeDirectoriesOfDeadProcesses()
        try FileManager.default.createDirectory(atPath: scratchDirectory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: MachineFixtures.scratchPath) }
    }

    /// Scratch directories of fuzz processes that crashed (their `atexit` never ran).
    private static func removeDirectoriesOfDeadProcesses() {
        let base = (scratchPath as NSString).deletingLastPathComponent
        let prefix = "accounthandoff-fuzz-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: "\(base)/\(name)")
        }
    }

    private static let scratchPath: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(base)/accounthandoff-fuzz-\(getpid())"
    }()

    var nonce: [UInt8] { Array(senderStream[0..<32]) }
    var senderPrivateKey: [UInt8] { Array(senderStream[32..<64]) }
}
