import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// An importer that keeps exactly what arrived, so a test can check that nothing was imported
/// that was not sent: the metadata and the password bytes of every import.
struct VerifyingImporter: AccountImporter {
    final class Record: @unchecked Sendable {
        // Safety of @unchecked Sendable: `imports` is only touched under `lock`.
        private let lock = NSLock()
        private var imports: [(metadata: AccountMetadata, password: [UInt8])] = []
        func add(_ metadata: AccountMetadata, _ password: [UInt8]) { lock.withLock { imports.append((metadata, password)) } }
        var all: [(metadata: AccountMetadata, password: [UInt8])] { lock.withLock { imports } }
    }

    struct Preparation: AccountImportPreparation {
        let record: Record
        func checkReady() throws(ImportNotReady) {}
        func importAccount(_ account: ImportedAccount) async -> ImportReport {
            record.add(account.metadata, account.credential.revealedBytes())
            return ImportReport(status: .imported, message: "Imported for the test.")
        }
        func abandon() {}
    }

    let record = Record()

    func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> Preparation { Preparation(record: record) }
}

/// The two devices of a relay test: a sender session on a listener that waits at the relay,
/// a receiver session that connects through it, one manual clock for both (so that a test
/// can make the code expire without waiting), people who confirm, and everything a test
/// checks afterwards.
final class RelayedTransfer: Sendable {
    static let password = "relay-test-password-7Q4m"
    static let account: AccountMetadata = try! AccountMetadata(
        linkID: AccountLinkID(uuid: UUID(uuidString: "5A0B9E51-2C1D-4E3F-8A7B-6C5D4E3F2A1B")!), displayName: "Grace Hopper",
        emailAddress: "grace.hopper@navy.example", username: "ghopper", imapHost: "imap.navy.example", imapPort: 993, imapSecurity: .tls)

    let listener: FrameListener
    let sender: HandoffSenderSession
    let payload: SessionPayload
    let keys: TransportKeys
    let clock: ManualHandoffClock
    let importer = VerifyingImporter()
    let code = CodeBoard()
    private let running: Task<SenderOutcome, Never>

    private init(listener: FrameListener, sender: HandoffSenderSession, payload: SessionPayload, clock: ManualHandoffClock,
                 running: Task<SenderOutcome, Never>) throws {
        self.listener = listener
        self.sender = sender
        self.payload = payload
        self.clock = clock
        self.running = running
        keys = try TransportKeys(payload: payload)
    }

    /// Deadlines of ``Patience/deadline`` (the drivers share two threads with every other test,
    /// and wait minutes for one on a loaded machine) and the Spec's relay timing.
    static let configuration = TransportConfiguration(connectTimeout: Patience.deadline, admissionTimeout: Patience.deadline,
                                                      bindTimeout: Patience.deadline, readTimeout: Patience.deadline,
                                                      writeTimeout: Patience.deadline, closeLinger: .milliseconds(200))

    /// A sender that shows a relay-only code (or one with its direct address too) naming the
    /// relay at `relayHost:relayPort`, and runs. With `advertisedDirectPort`, the code names
    /// 127.0.0.1 at that port as its direct address, where the sender does not listen.
    static func start(relayHost: String = "127.0.0.1", relayPort: UInt16, direct: Bool = false, advertisedDirectPort: UInt16? = nil,
                      maximumCodes: Int = 1, configuration: TransportConfiguration = configuration) async throws -> RelayedTransfer {
        let relay = try #require(TCPRendezvous.Relay(host: RelayHost(relayHost), port: relayPort))
        let listener = try FrameListener(relay: relay, advertisesDirectAddress: direct, configuration: configuration)
        var rendezvous = listener.rendezvous
        if let advertisedDirectPort {
            rendezvous = try TCPRendezvous(direct: TCPRendezvous.Endpoint(address: .loopback, port: advertisedDirectPort), relay: relay)
        }
        let clock = ManualHandoffClock(start: Date())
        let sender = HandoffSenderSession(account: account, rendezvous: rendezvous.token, channel: listener,
                                          credential: { _ in try SecretBytes(utf8: password) },
                                          authenticator: ScriptedAuthenticator(always: .authenticated), registry: SenderRegistry.inMemory(),
                                          options: SenderSessionOptions(configuration: try SenderConfiguration(lifetime: 120), maximumCodes: maximumCodes),
                                          clock: clock)
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        return try RelayedTransfer(listener: listener, sender: sender, payload: payload, clock: clock, running: running)
    }

    /// A receiver session for the sender's code that connects with the transport (through the
    /// relay, waiting there until `pairingWithin` from now).
    func receiver(for scanned: SessionPayload? = nil, pairingWithin: Duration = Patience.deadline, configuration: TransportConfiguration = configuration,
                  progress: @escaping @Sendable (ConnectionProgress) -> Void = { _ in }) throws -> HandoffReceiverSession<VerifyingImporter> {
        let deadline = Date().addingTimeInterval(Double(pairingWithin.components.seconds))
        return HandoffReceiverSession(payload: scanned ?? payload, importer: importer, authenticator: ScriptedAuthenticator(always: .authenticated),
                                      registry: ReceiverRegistry.inMemory(), clock: clock) { payload in
            try await ConnectionFrameChannel.connect(to: payload, configuration: configuration, pairingDeadline: deadline, progress: progress)
        }
    }

    /// What both people do.
    enum Script: Sendable {
        /// Both confirm; the transfer completes if the transport lets it.
        case confirm
        /// The sending person cancels once the receiving device joined.
        case senderCancelsAfterJoin
        /// The receiving person cancels instead of accepting the offered account.
        case receiverCancelsAtOffer
        /// Nobody answers: the sending person never types the code.
        case nobodyAnswers
        /// The sending screen goes away once the receiving device joined: the task that
        /// awaits the sender's `run()` is cancelled.
        case senderTaskCancelledAfterJoin
        /// The receiving screen goes away while the account is offered: the task that awaits
        /// the receiver's `run()` is cancelled.
        case receiverTaskCancelledAtOffer
    }

    /// Runs `receiver` to its end with people playing `script`; returns both outcomes.
    func run(_ receiver: HandoffReceiverSession<VerifyingImporter>, script: Script = .confirm,
             whileRunning: @escaping @Sendable () async -> Void = {}) async -> (SenderOutcome, ReceiverOutcome) {
        let receiving = Task { await receiver.run() }
        let people = people(receiver, script: script, receiving: receiving)
        let watching = Task { await whileRunning() }
        let received = await receiving.value
        let sent = await running.value
        watching.cancel()
        await people.value
        return (sent, received)
    }

    /// The sender's outcome, waiting for it.
    var senderOutcome: SenderOutcome { get async { await running.value } }

    /// Makes the code expire for both devices (and the receiver's skew run out).
    func expire() {
        clock.set(payload.expiryDate.addingTimeInterval(Double(ReceiverConfiguration.standard.clockSkewTolerance) + 1))
    }

    private func people(_ receiver: HandoffReceiverSession<VerifyingImporter>, script: Script,
                        receiving: Task<ReceiverOutcome, Never>) -> Task<Void, Never> {
        let sender = self.sender
        let code = self.code
        let running = self.running
        return Task {
            let sendingPerson = Task {
                for await update in sender.updates {
                    guard case .receiverJoined = update else { continue }
                    if case .senderCancelsAfterJoin = script {
                        await sender.cancel()
                    } else if case .senderTaskCancelledAfterJoin = script {
                        running.cancel()
                    } else if case .nobodyAnswers = script {
                        continue
                    } else if let shown = await code.read() {
                        _ = try? await sender.enterCode(shown.grouped)
                    }
                }
            }
            for await update in receiver.updates {
                switch update {
                case .codeReady(let shown): await code.show(shown)
                case .accountOffered:
                    switch script {
                    case .receiverCancelsAtOffer: await receiver.cancel()
                    case .receiverTaskCancelledAtOffer: receiving.cancel()
                    case .confirm, .senderCancelsAfterJoin, .nobodyAnswers, .senderTaskCancelledAfterJoin: try? await receiver.accept()
                    }
                case .finished: await code.close()
                default: break
                }
            }
            await code.close()
            await sendingPerson.value
        }
    }

    // MARK: What the relay must never learn

    /// Byte strings that must never appear in what a relay copied: the password, the account's
    /// strings and link ID, the short code, the QR's secret parts and text, and the admission key.
    func secrets(shortCode: ShortCode?) -> [(name: String, bytes: [UInt8])] {
        let account = Self.account
        var list: [(String, [UInt8])] = [
            ("password", Array(Self.password.utf8)),
            ("display name", Array(account.displayName.utf8)), ("e-mail address", Array(account.emailAddress.utf8)),
            ("user name", Array(account.username.utf8)), ("mail server", Array(account.imapHost.utf8)),
            ("link ID", account.linkID.bytes), ("link ID text", Array(account.linkID.description.utf8)),
            ("commitment", payload.commitment), ("sender public key", payload.senderPublicKey.bytes),
            ("QR text", Array(payload.text.utf8)), ("admission key", keys.admissionKey.revealedBytes()),
        ]
        if let shortCode {
            list += [("short code", Array(shortCode.digits.utf8)), ("short code grouped", Array(shortCode.grouped.utf8))]
        }
        return list
    }
}

/// The code the receiving screen shows, for the sending person to read.
actor CodeBoard {
    private var shown: ShortCode?
    private var waiters: [CheckedContinuation<ShortCode?, Never>] = []
    private var closed = false

    func show(_ code: ShortCode) {
        shown = code
        waiters.forEach { $0.resume(returning: code) }
        waiters.removeAll()
    }

    func close() {
        closed = true
        waiters.forEach { $0.resume(returning: shown) }
        waiters.removeAll()
    }

    func read() async -> ShortCode? {
        if shown != nil || closed { return shown }
        return await withCheckedContinuation { waiters.append($0) }
    }

    /// The code shown, if any (without waiting).
    var code: ShortCode? { shown }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { start in self[start..<start + needle.count].elementsEqual(needle) }
    }
}
