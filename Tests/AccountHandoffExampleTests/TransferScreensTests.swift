import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import TestProcesses
import Testing

/// An app that always validates (the example's mail server is not reachable here).
private struct AcceptingValidator: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .valid }
}

/// Both devices of the README example over an in-memory channel, with a manual clock.
@MainActor private struct TwoDevices {
    let clock = ManualHandoffClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let channels = InMemoryFrameChannel.pair()
    let store: ReferenceAccountStore
    let coordinator: ImportCoordinator
    let senderGate: ScriptedAuthenticator
    let receiverGate: ScriptedAuthenticator
    let sending: SendingScreen
    let directory: URL

    init(receiverGate: LocalAuthenticationResult = .authenticated, seedConflict: Bool) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        store = try ReferenceAccountStore.open(at: directory)
        coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: AcceptingValidator())
        if seedConflict, let old = try ImportScenario.replace.oldAccount(host: "imap.example.org", port: 993, user: "ada") {
            try ImportScenario.seed(store, id: ImportScenario.oldAccountID, metadata: old,
                                    password: try SecretBytes(utf8: ImportScenario.oldPassword))
        }
        senderGate = ScriptedAuthenticator(always: .authenticated)
        self.receiverGate = ScriptedAuthenticator(always: receiverGate)
        let account = try ImportScenario.offer(host: "imap.example.org", port: 993, user: "ada")
        sending = SendingScreen(account: account, channel: channels.sender, rendezvous: try RendezvousToken(bytes: [1]),
                                keychain: { _ in try SecretBytes(utf8: "s3cret") }, gate: senderGate,
                                registry: SenderRegistry.inMemory(), clock: clock)
    }

    func receiving(_ text: String) throws -> ReceivingScreen {
        let channel = channels.receiver
        return try ReceivingScreen(scanned: text, importer: coordinator, gate: receiverGate,
                                   registry: ReceiverRegistry.inMemory(), clock: clock, connect: { _ in channel })
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
    @Test func readmeShowsExactlyTheCompiledExample() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here.appendingPathComponent("TransferScreens.swift"), encoding: .utf8)
        let begin = try #require(source.range(of: "// README:begin example\n"))
        let end = try #require(source.range(of: "// README:end example"))
        let snippet = String(source[begin.upperBound..<end.lowerBound])
        #expect(readme.contains(snippet), "README.md must contain the example verbatim")
        let lines = snippet.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 120, "the example app has \(lines) lines")
    }

    /// The first code expires unscanned and is renewed; the receiver scans the second, the
    /// sending person types the receiving screen's code, the receiving person replaces the
    /// stored account; both gates were asked at their Spec 8.7 points; the account arrives.
    @Test func renewalConflictGatesAndImport() async throws {
        let devices = try TwoDevices(seedConflict: true)
        let sending = devices.sending
        let sent = Task { await sending.run() }
        try await eventually { !sending.qrSVG.isEmpty }
        let firstQR = sending.qrSVG
        let firstText = sending.qrText
        let firstExpiry = sending.expires
        devices.clock.set(firstExpiry)
        try await eventually { sending.qrSVG != firstQR }
        #expect(sending.expires > firstExpiry && sending.qrText != firstText)
        let receiving = try devices.receiving(sending.qrText)
        let received = Task { await receiving.run() }
        try await eventually { sending.asksForCode && !receiving.code.isEmpty }
        await sending.typed("000 000")
        #expect(sending.status == "That is not the code on the other device; 2 more tries.")
        await sending.typed(receiving.code)
        try await eventually { receiving.offered != nil }
        #expect(receiving.conflict?.existing.first?.account.id == ImportScenario.oldAccountID)
        await receiving.accept()
        #expect(receiving.status == ImportNotReady.choiceRequired.description)
        await receiving.accept(.replace(ImportScenario.oldAccountID))
        #expect(await received.value == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        #expect(devices.senderGate.purposes.count == 1)
        #expect(devices.receiverGate.purposes.count == 1)
        let stored = try devices.store.accounts()
        #expect(stored.count == 1 && stored[0].metadata.linkID == ImportScenario.offeredLinkID)
        #expect(receiving.status.hasPrefix("The account ada@example.org was imported and replaced"))
        #expect(sending.passwordLeft == .yes && receiving.passwordArrived == .yes)
    }

    /// The receiving person cancels at the conflict: one call declines the account; both
    /// devices end as rejected, the password never left, the stored account is unchanged.
    @Test func aConflictsCancelDeclinesOnBothDevices() async throws {
        let devices = try TwoDevices(seedConflict: true)
        let sending = devices.sending
        let sent = Task { await sending.run() }
        try await eventually { !sending.qrText.isEmpty }
        let receiving = try devices.receiving(sending.qrText)
        let received = Task { await receiving.run() }
        try await eventually { sending.asksForCode && !receiving.code.isEmpty }
        await sending.typed(receiving.code)
        try await eventually { receiving.conflict != nil }
        await receiving.accept(.cancel)
        #expect(await received.value == .ended(.rejected(by: .local)))
        #expect(await sent.value == .ended(.rejected(by: .peer)))
        #expect(sending.passwordLeft == .no && receiving.passwordArrived == .no)
        #expect(devices.senderGate.purposes.isEmpty && devices.receiverGate.purposes.isEmpty)
        let stored = try devices.store.accounts()
        #expect(stored.count == 1 && stored[0].id == ImportScenario.oldAccountID)
    }

    /// A receiving person who cancels the local-authentication prompt stops the transfer
    /// before the password travels; both devices say who stopped it.
    @Test func aCancelledGateOnTheReceiverSendsNothing() async throws {
        let devices = try TwoDevices(receiverGate: .cancelled, seedConflict: false)
        let sending = devices.sending
        let sent = Task { await sending.run() }
        try await eventually { !sending.qrText.isEmpty }
        let receiving = try devices.receiving(sending.qrText)
        let received = Task { await receiving.run() }
        try await eventually { sending.asksForCode && !receiving.code.isEmpty }
        await sending.typed(receiving.code)
        try await eventually { receiving.offered != nil }
        await receiving.accept()
        #expect(await received.value == .ended(.cancelled(by: .local)))
        #expect(await sent.value == .ended(.cancelled(by: .peer)))
        #expect(devices.senderGate.purposes.isEmpty, "the sender never reached its gate")
        #expect(try devices.store.accounts().isEmpty)
    }

}
