import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestKit
import AccountHandoffTestSupport
import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// An app that always validates (the example's mail server is not reachable here).
private struct AcceptingValidator: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .valid }
}

/// Both devices of the README example, as an app's tests build them with the test kit: the
/// in-memory channel pair, one manual clock, a scripted gate on each device, and the reference
/// store in a scratch directory.
@MainActor private struct TwoDevices {
    let clock = ManualHandoffClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let channels = InMemoryFrameChannel.pair()
    let store: ReferenceAccountStore
    let coordinator: ImportCoordinator
    let senderGate: ScriptedAuthenticator
    let receiverGate: ScriptedAuthenticator
    let sending: SendingScreen
    let directory: URL

    /// The devices, with the receiving store opened (and seeded) on the I/O pool, as an app does.
    init(senderGate: LocalAuthenticationResult = .authenticated, receiverGate: LocalAuthenticationResult = .authenticated,
         seedConflict: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        self.directory = directory
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        self.store = store
        coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: AcceptingValidator())
        if seedConflict, let old = try ImportScenario.replace.oldAccount(host: "imap.example.org", port: 993, user: "ada") {
            try await blocking {
                try ImportScenario.seed(store, id: ImportScenario.oldAccountID, metadata: old,
                                        password: try SecretBytes(utf8: ImportScenario.oldPassword))
            }
        }
        self.senderGate = ScriptedAuthenticator(always: senderGate)
        self.receiverGate = ScriptedAuthenticator(always: receiverGate)
        let account = try ImportScenario.offer(host: "imap.example.org", port: 993, user: "ada")
        sending = SendingScreen(HandoffSenderSession(account: account, rendezvous: try RendezvousToken(bytes: [1]), channel: channels.sender,
                                                     credential: { _ in try SecretBytes(utf8: "s3cret") }, authenticator: self.senderGate,
                                                     registry: .inMemory(), clock: clock))
    }

    func receiving(_ text: String) throws -> ReceivingScreen {
        let channel = channels.receiver
        return ReceivingScreen(try HandoffReceiverSession(scannedText: text, importer: coordinator, authenticator: receiverGate,
                                                          registry: .inMemory(), clock: clock, connect: { _ in channel }))
    }

    /// Runs both screens until the sending person must type: returns the running tasks.
    func started() async throws -> (Task<SenderOutcome, Never>, ReceivingScreen, Task<ReceiverOutcome, Never>) {
        let sending = self.sending
        let sent = Task { await sending.run() }
        try await eventually { sending.model.snapshot.code != nil }
        let receiving = try receiving(try #require(sending.model.snapshot.code).text)
        let received = Task { await receiving.run() }
        try await eventually { sending.model.snapshot.stage == .typingCode && receiving.model.snapshot.code != nil }
        return (sent, receiving, received)
    }

    /// Both people confirm the code; returns once the account is offered.
    func confirmed() async throws -> (Task<SenderOutcome, Never>, ReceivingScreen, Task<ReceiverOutcome, Never>) {
        let (sent, receiving, received) = try await started()
        await sending.typed(try #require(receiving.model.snapshot.code).grouped)
        try await eventually { receiving.model.snapshot.offered != nil }
        return (sent, receiving, received)
    }
}

/// Waits until `condition` holds (the sessions run on their own tasks), with a deadline only a
/// hung session meets.
@MainActor private func eventually(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + Patience.deadline
    while !condition(), ContinuousClock.now < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(condition())
}

@MainActor @Suite struct TransferScreensTests {
    /// The README holds the example verbatim: the whole app, wiring and imports included, in at
    /// most 80 lines that are neither blank nor comments.
    @Test func readmeShowsExactlyTheCompiledExample() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here.appendingPathComponent("TransferScreens.swift"), encoding: .utf8)
        let begin = try #require(source.range(of: "// README:begin example\n"))
        let end = try #require(source.range(of: "// README:end example"))
        let snippet = String(source[begin.upperBound..<end.lowerBound])
        #expect(readme.contains("```swift\n" + snippet + "```\n"), "README.md must contain the example verbatim")
        let code = snippet.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("//") }
        #expect(code.count <= 80, "the example app has \(code.count) lines of code")
        #expect(code.prefix { $0.hasPrefix("import ") }.count == 6, "the imports are listed first")
        #expect(readme.contains("The example has \(code.count) lines of code"), "the README states the count")
    }

    /// The first code expires unscanned and is renewed; the receiver scans the second, the
    /// sending person types a wrong code and then the receiving screen's code, the receiving
    /// person must choose, then replaces the stored account; both gates were asked once, at
    /// their Spec 8.7 points; the account arrives.
    @Test func renewalConflictGatesAndImport() async throws {
        let devices = try await TwoDevices(seedConflict: true)
        let sending = devices.sending
        let sent = Task { await sending.run() }
        try await eventually { !sending.qrSVG.isEmpty }
        let first = try #require(sending.model.snapshot.code)
        let firstQR = sending.qrSVG
        devices.clock.set(first.expiryDate)
        try await eventually { sending.model.snapshot.codesShown == 2 }
        #expect(sending.qrSVG != firstQR && sending.model.snapshot.code != first)
        #expect(sending.status == "Scan this code with the other device.")
        let receiving = try devices.receiving(try #require(sending.model.snapshot.code).text)
        let received = Task { await receiving.run() }
        try await eventually { sending.model.snapshot.stage == .typingCode && receiving.model.snapshot.code != nil }
        #expect(sending.status == "Type the code shown on the other device.")
        await sending.typed("000 000")
        #expect(sending.typedAnswer == "That is not the code on the other device; 2 more tries.")
        await sending.typed(try #require(receiving.model.snapshot.code).grouped)
        try await eventually { receiving.model.snapshot.offered != nil }
        #expect(receiving.model.snapshot.preparation?.conflict?.existing.first?.account.id == ImportScenario.oldAccountID)
        #expect(receiving.status == "Replace the similar account, keep both, or cancel?")
        await receiving.accept()
        #expect(receiving.refusal == HandoffError.importChoiceRequired.localizedDescription)
        await receiving.accept(.replace(ImportScenario.oldAccountID))
        #expect(await received.value == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        #expect(devices.senderGate.purposes.count == 1)
        #expect(devices.receiverGate.purposes.count == 1)
        let store = devices.store
        let stored = try await blocking { try store.accounts() }
        #expect(stored.count == 1 && stored[0].metadata.linkID == ImportScenario.offeredLinkID)
        try await eventually { receiving.model.snapshot.outcome != nil && sending.model.snapshot.outcome != nil }
        #expect(receiving.status.hasPrefix("The account ada@example.org was imported and replaced"))
        #expect(sending.status == SenderOutcome.completed(.imported).message)
        #expect(sending.model.snapshot.outcome?.passwordLeft == .yes && receiving.model.snapshot.outcome?.passwordArrived == .yes)
    }

    /// The receiving person cancels at the conflict: one call declines the account; both
    /// devices end as rejected, the password never left, the stored account is unchanged.
    @Test func aConflictsCancelDeclinesOnBothDevices() async throws {
        let devices = try await TwoDevices(seedConflict: true)
        let (sent, receiving, received) = try await devices.confirmed()
        await receiving.accept(.cancel)
        #expect(await received.value == .ended(.rejected(by: .local)))
        #expect(await sent.value == .ended(.rejected(by: .peer)))
        #expect(await sent.value.passwordLeft == .no)
        #expect(devices.senderGate.purposes.isEmpty && devices.receiverGate.purposes.isEmpty)
        let store = devices.store
        let stored = try await blocking { try store.accounts() }
        #expect(stored.count == 1 && stored[0].id == ImportScenario.oldAccountID)
    }

    /// The receiving person cancels the local-authentication prompt: the transfer stops before
    /// the password travels; both devices say who stopped it.
    @Test func aCancelledGateOnTheReceiverSendsNothing() async throws {
        let devices = try await TwoDevices(receiverGate: .cancelled, seedConflict: false)
        let (sent, receiving, received) = try await devices.confirmed()
        await receiving.accept()
        #expect(await received.value == .ended(.cancelled(by: .local)))
        #expect(await sent.value == .ended(.cancelled(by: .peer)))
        #expect(devices.senderGate.purposes.isEmpty, "the sender never reached its gate")
        let store = devices.store
        #expect(try await blocking { try store.accounts() }.isEmpty)
    }

    /// The sending person fails the gate before the password is read: nothing leaves, and the
    /// receiving device is told.
    @Test func aFailedGateOnTheSenderSendsNothing() async throws {
        let devices = try await TwoDevices(senderGate: .failed(.notRecognized), seedConflict: false)
        let (sent, receiving, received) = try await devices.confirmed()
        await receiving.accept()
        #expect(await sent.value == .ended(.notAuthenticated(by: .local)))
        #expect(await received.value == .ended(.notAuthenticated(by: .peer)))
        #expect(devices.senderGate.purposes.count == 1 && devices.receiverGate.purposes.count == 1)
        #expect(await sent.value.passwordLeft == .no)
        let store = devices.store
        #expect(try await blocking { try store.accounts() }.isEmpty)
    }

    /// The sending screen goes away (SwiftUI cancels its `.task`) while the person types: both
    /// devices end as cancelled.
    @Test func leavingTheSendingScreenCancelsBothDevices() async throws {
        let devices = try await TwoDevices(seedConflict: false)
        let (sent, _, received) = try await devices.started()
        sent.cancel()
        #expect(await sent.value == .ended(.cancelled(by: .local)))
        #expect(await received.value == .ended(.cancelled(by: .peer)))
    }

    /// The receiving screen goes away while the account is offered: both devices end as
    /// cancelled, nothing is imported.
    @Test func leavingTheReceivingScreenCancelsBothDevices() async throws {
        let devices = try await TwoDevices(seedConflict: false)
        let (sent, _, received) = try await devices.confirmed()
        received.cancel()
        #expect(await received.value == .ended(.cancelled(by: .local)))
        #expect(await sent.value == .ended(.cancelled(by: .peer)))
        let store = devices.store
        #expect(try await blocking { try store.accounts() }.isEmpty)
    }

    /// An app's test that touches no disk: the import coordinator over the test kit's
    /// in-memory store, which ends with the account and exactly the password sent.
    @Test func theScreensImportIntoTheKitsInMemoryStore() async throws {
        let clock = ManualHandoffClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let channels = InMemoryFrameChannel.pair()
        let store = InMemoryAccountStore()
        let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: AcceptingValidator())
        let account = try ImportScenario.offer(host: "imap.example.org", port: 993, user: "ada")
        let sending = SendingScreen(HandoffSenderSession(account: account, rendezvous: try RendezvousToken(bytes: [1]), channel: channels.sender,
                                                         credential: { _ in try SecretBytes(utf8: "s3cret") },
                                                         authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(), clock: clock))
        let sent = Task { await sending.run() }
        try await eventually { sending.model.snapshot.code != nil }
        let receiverEnd = channels.receiver
        let receiving = ReceivingScreen(try HandoffReceiverSession(scannedText: try #require(sending.model.snapshot.code).text, importer: coordinator,
                                                                   authenticator: ScriptedAuthenticator(always: .authenticated),
                                                                   registry: .inMemory(), clock: clock, connect: { _ in receiverEnd }))
        let received = Task { await receiving.run() }
        try await eventually { sending.model.snapshot.stage == .typingCode && receiving.model.snapshot.code != nil }
        await sending.typed(try #require(receiving.model.snapshot.code).grouped)
        try await eventually { receiving.model.snapshot.offered != nil }
        await receiving.accept()
        #expect(await received.value == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        let stored = try store.accounts()
        #expect(stored.count == 1 && stored[0].metadata.linkID == account.linkID)
        #expect(store.credential(of: stored[0].id, equals: Array("s3cret".utf8)))
        #expect(try store.stagedCredentials().isEmpty && store.pendingActivations().isEmpty)
    }

    /// The wiring as the app runs it: durable registries and the reference store in one
    /// directory, a listener the sending session owns, the TCP transport on 127.0.0.1.
    @Test func theWiringTransfersOverTCP() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-wiring-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // As the app does: opening the registries and the store reads files, on the I/O pool.
        var handoff = try await BlockingIOPool.shared.run { _ in
            try Handoff(directory: directory, gate: ScriptedAuthenticator(always: .authenticated), validator: AcceptingValidator())
        }
        // Deadlines no loaded machine meets by accident (the transport's own are not tested here).
        handoff.transport = TransportConfiguration(connectTimeout: Patience.deadline, admissionTimeout: Patience.deadline,
                                                   bindTimeout: Patience.deadline, readTimeout: Patience.deadline,
                                                   writeTimeout: Patience.deadline, closeLinger: .milliseconds(200))
        let account = try ImportScenario.offer(host: "imap.example.org", port: 993, user: "ada")
        let sending = try handoff.send(account, on: .loopback, keychain: { _ in try SecretBytes(utf8: "s3cret") })
        let sent = Task { await sending.run() }
        try await eventually { sending.model.snapshot.code != nil }
        let receiving = try handoff.receive(try #require(sending.model.snapshot.code).text)
        let received = Task { await receiving.run() }
        // A transfer that fails ends the wait at once (an outcome) instead of at the deadline.
        let ended = { sending.model.snapshot.outcome != nil || receiving.model.snapshot.outcome != nil }
        try await eventually { (sending.model.snapshot.stage == .typingCode && receiving.model.snapshot.code != nil) || ended() }
        await sending.typed(try #require(receiving.model.snapshot.code).grouped)
        try await eventually { receiving.model.snapshot.offered != nil || ended() }
        await receiving.accept()
        #expect(await received.value == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        let transfer = try #require(sending.model.snapshot.code).transferID
        // The outcome is written on the I/O pool shortly after the session ends (Spec 6.3).
        let stored = try await blockingUntil({
            (sender: try SenderRegistry(directory: directory).status(of: transfer), claimed: try ReceiverRegistry(directory: directory).hasClaimed(transfer))
        }, satisfies: { $0.sender != .pending })
        #expect(stored.sender == .finished(outcomeIdentifier: "completed.imported"))
        #expect(stored.claimed)
    }
}
