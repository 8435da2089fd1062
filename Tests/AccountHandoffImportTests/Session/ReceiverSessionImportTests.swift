import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing

/// The reference store, refusing writes when a test says so (a locked, read-only or full store,
/// a locked or missing keyring), the way the real stores report it.
private final class RefusingStore: AccountMetadataStore, CredentialStore, @unchecked Sendable {
    // Safety of @unchecked Sendable: the refusals are only touched under `lock`.
    let base: ReferenceAccountStore
    private let lock = NSLock()
    private var metadataRefusal: AccountStoreError?
    private var credentialRefusal: CredentialStoreError?

    init(_ base: ReferenceAccountStore) { self.base = base }

    func refuse(metadata: AccountStoreError? = nil, credentials: CredentialStoreError? = nil) {
        lock.withLock { (metadataRefusal, credentialRefusal) = (metadata, credentials) }
    }

    func checkMetadataWritable() throws(AccountStoreError) {
        if let refusal = lock.withLock({ metadataRefusal }) { throw refusal }
        try base.checkMetadataWritable()
    }
    func accounts() throws(AccountStoreError) -> [StoredAccount] { try base.accounts() }
    func commit(_ change: AccountChange, if precondition: ([StoredAccount]) -> Bool) throws(AccountStoreError) {
        try base.commit(change, if: precondition)
    }
    func pendingActivations() throws(AccountStoreError) -> [PendingActivation] { try base.pendingActivations() }
    func finishActivation(_ pending: PendingActivation) throws(AccountStoreError) { try base.finishActivation(pending) }
    func acquireImportLease() throws(AccountStoreError) -> ImportLease { try base.acquireImportLease() }
    func acquireRecoveryLease() throws(AccountStoreError) -> ImportLease? { try base.acquireRecoveryLease() }
    func checkCredentialsWritable() throws(CredentialStoreError) {
        if let refusal = lock.withLock({ credentialRefusal }) { throw refusal }
        try base.checkCredentialsWritable()
    }
    func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential { try base.stage(credential) }
    func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        try base.activate(staged, for: account)
    }
    func discard(_ staged: StagedCredential) throws(CredentialStoreError) { try base.discard(staged) }
    func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] { try base.stagedCredentials() }
    func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] { try base.accountsWithCredential() }
    func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError) { try base.deleteCredential(of: account) }
}

/// Counts how often the sending app read the password: it must stay 0 whenever the receiver
/// declines before accepting.
private final class PasswordReads: @unchecked Sendable {
    // Safety of @unchecked Sendable: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var reads = 0
    var count: Int { lock.withLock { reads } }
    func read() throws -> SecretBytes {
        lock.withLock { reads += 1 }
        return try SecretBytes(utf8: "the-password-that-must-stay-home")
    }
}

/// A validator that accepts every account (nothing here reaches a mail server).
private struct AcceptingValidator: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .valid }
}

/// Spec 6.7, 8.3: for every reason a receiving device can know before it accepts (a conflict
/// without a choice; a store that is locked, read-only or full; a keyring that is locked or
/// absent; a certificate authority file that is missing or not a certificate), the password
/// never leaves the sender, and both devices say what happened.
@Suite struct ReceiverSessionImportTests {
    private struct Devices {
        let sender: HandoffSenderSession
        let receiver: HandoffReceiverSession<ImportCoordinator>
        let store: RefusingStore
        let reads: PasswordReads
        let directory: URL
    }

    private func devices(seedConflict: Bool = false, validator: any AccountValidator = AcceptingValidator(),
                         options: ReferenceStoreOptions = ReferenceStoreOptions(),
                         receiverGate: LocalAuthenticationResult = .authenticated) async throws -> (Devices, Task<SenderOutcome, Never>) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-session-\(UUID().uuidString)")
        let base = try await blocking { try ReferenceAccountStore.open(at: directory, options: options) }
        if seedConflict, let old = try ImportScenario.replace.oldAccount(host: "imap.example.org", port: 993, user: "ada-old") {
            try await blocking { try ImportScenario.seed(base, id: ImportScenario.oldAccountID, metadata: old, password: try SecretBytes(utf8: "old")) }
        }
        let store = RefusingStore(base)
        let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
        let channels = InMemoryFrameChannel.pair()
        let reads = PasswordReads()
        let sender = HandoffSenderSession(account: try ImportScenario.offer(host: "imap.example.org", port: 993, user: "ada"),
                                          rendezvous: try RendezvousToken(bytes: [1]), channel: channels.sender,
                                          credential: { _ in try reads.read() },
                                          authenticator: ScriptedAuthenticator(always: .authenticated), registry: SenderRegistry.inMemory())
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let receiverChannel = channels.receiver
        let receiver = HandoffReceiverSession(payload: payload, importer: coordinator, authenticator: ScriptedAuthenticator(always: receiverGate),
                                              registry: ReceiverRegistry.inMemory(), connect: { _ in receiverChannel })
        return (Devices(sender: sender, receiver: receiver, store: store, reads: reads, directory: directory), sent)
    }

    /// Runs both devices: the sending person types the receiving screen's code; `review` acts
    /// on the offered account. Returns both outcomes and the receiver's detail sentence.
    private func run(_ devices: Devices, sent: Task<SenderOutcome, Never>,
                     review: @escaping @Sendable (HandoffReceiverSession<ImportCoordinator>, PreparedImport) async -> Void)
        async -> (sender: SenderOutcome, receiver: ReceiverOutcome, detail: String?) {
        let screen = ReceivingScreen()
        let sendingPerson = Task {
            for await update in devices.sender.updates {
                if case .receiverJoined = update, let code = await screen.read() { _ = try? await devices.sender.enterCode(code.digits) }
            }
        }
        let receivingPerson = Task { () -> String? in
            var detail: String?
            for await update in devices.receiver.updates {
                switch update {
                case .codeReady(let code): await screen.show(code)
                case .accountOffered(_, let prepared, _): await review(devices.receiver, prepared)
                case .finished(_, let sentence): detail = sentence
                default: break
                }
            }
            await screen.close()
            return detail
        }
        let received = await devices.receiver.run()
        let detail = await receivingPerson.value
        let senderOutcome = await sent.value
        await sendingPerson.value
        return (senderOutcome, received, detail)
    }

    /// The misuses an app can make at run time each get a typed error and leave the transfer
    /// able to finish: "yes" or three digits typed as the code (no try used), the code typed
    /// again after it matched, accepting twice; and `run()` called again returns the outcome.
    @Test func misuseGetsTypedErrorsAndTheTransferStillCompletes() async throws {
        let (devices, sent) = try await devices()
        let screen = ReceivingScreen()
        let sendingPerson = Task {
            for await update in devices.sender.updates {
                guard case .receiverJoined = update, let code = await screen.read() else { continue }
                for slip in ["yes", "861", "12 34 5a"] {
                    await #expect(throws: HandoffError.malformed(.typedCode)) { try await devices.sender.enterCode(slip) }
                }
                #expect((try? await devices.sender.enterCode(code.digits)) == .matched)
                await #expect(throws: HandoffError.self) { try await devices.sender.enterCode(code.digits) }
            }
        }
        let receivingPerson = Task {
            for await update in devices.receiver.updates {
                switch update {
                case .codeReady(let code): await screen.show(code)
                case .accountOffered:
                    try? await devices.receiver.accept()
                    await #expect(throws: HandoffError.self) { try await devices.receiver.accept() }
                case .finished: await screen.close()
                default: break
                }
            }
        }
        let received = await devices.receiver.run()
        await receivingPerson.value
        await sendingPerson.value
        #expect(received == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        #expect(await devices.receiver.run() == received, "run() again returns the same outcome")
        #expect(await devices.sender.run() == .completed(.imported))
        #expect(devices.reads.count == 1)
    }

    @Test func aConflictWithoutAChoiceCannotBeAcceptedAndSendsNothing() async throws {
        let (devices, sent) = try await devices(seedConflict: true)
        let result = await run(devices, sent: sent) { receiver, prepared in
            #expect(prepared.conflict != nil)
            await #expect(throws: HandoffError.importChoiceRequired) { try await receiver.accept() }
            #expect(await receiver.phase == .reviewingOffer)
            await receiver.cancel()
        }
        #expect(result.receiver == .ended(.cancelled(by: .local)))
        #expect(result.sender == .ended(.cancelled(by: .peer)))
        #expect(devices.reads.count == 0)
    }

    /// Each refusal the store reports when the account is offered: the receiver aborts with
    /// storeUnavailable, the sender says the receiving device cannot import it.
    @Test(arguments: [
        StoreRefusal.metadata(.readOnly), .metadata(.failed(StoreFailure(operation: "write", domain: .posix, code: 28))),
        .credentials(.keyringLocked), .credentials(.secretServiceUnavailable), .credentials(.sessionBusUnavailable),
    ])
    fileprivate func aStoreThatCannotTakeTheAccountStopsBeforeThePassword(_ refusal: StoreRefusal) async throws {
        let (devices, sent) = try await devices()
        refusal.apply(to: devices.store)
        let result = await run(devices, sent: sent) { _, _ in Issue.record("no account may be offered to accept") }
        #expect(result.receiver == .ended(.storeUnavailable(by: .local)))
        #expect(result.sender == .ended(.storeUnavailable(by: .peer)))
        #expect(devices.reads.count == 0)
        #expect(result.detail?.hasSuffix(".") == true)
        let base = devices.store.base
        #expect(try await blocking { try base.accounts() }.isEmpty)
    }

    /// The store becomes unusable while the person looks at the offer: the accept checks it
    /// again, and nothing is sent.
    @Test func aStoreThatFailsBeforeTheAcceptStopsBeforeThePassword() async throws {
        let (devices, sent) = try await devices()
        let result = await run(devices, sent: sent) { receiver, _ in
            devices.store.refuse(credentials: .keyringLocked)
            try? await receiver.accept()
        }
        #expect(result.receiver == .ended(.storeUnavailable(by: .local)))
        #expect(result.sender == .ended(.storeUnavailable(by: .peer)))
        #expect(devices.reads.count == 0)
        #expect(result.detail == ImportOutcome.declined(.failed(.credentialStore(.keyringLocked))).message)
    }

    /// Another process holds the store exclusively (its recovery): after the bounded wait for
    /// the import lease, the receiver declines.
    @Test func aLockedStoreStopsBeforeThePassword() async throws {
        let (devices, sent) = try await devices(options: ReferenceStoreOptions(importLockTimeout: .milliseconds(200)))
        let base = devices.store.base
        let held = try #require(try await blocking { try base.acquireRecoveryLease() })
        defer { held.release() }
        let result = await run(devices, sent: sent) { receiver, _ in
            Issue.record("no account may be offered to accept")
            await receiver.cancel()
        }
        #expect(result.receiver == .ended(.storeUnavailable(by: .local)))
        #expect(result.sender == .ended(.storeUnavailable(by: .peer)))
        #expect(devices.reads.count == 0)
    }

    /// A certificate authority file that is missing or holds no certificate is found when the
    /// account is offered, not after the password travelled.
    @Test(arguments: ["missing", "garbage", "empty", "a PEM block that is not DER"])
    func anUnusableCertificateAuthorityFileStopsBeforeThePassword(_ kind: String) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        switch kind {
        case "garbage": try Data("this is not a certificate\n".utf8).write(to: file)
        case "empty": try Data().write(to: file)
        case "a PEM block that is not DER":
            try Data("-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n".utf8).write(to: file)
        default: break
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let validator = IMAPValidator(configuration: IMAPValidatorConfiguration(trust: .certificateAuthorityFile(file)))
        let (devices, sent) = try await devices(validator: validator)
        let result = await run(devices, sent: sent) { _, _ in Issue.record("no account may be offered to accept") }
        #expect(result.receiver == .ended(.storeUnavailable(by: .local)))
        #expect(result.sender == .ended(.storeUnavailable(by: .peer)))
        #expect(devices.reads.count == 0)
        #expect(result.detail?.contains(file.path) == true, "\(result.detail ?? "no detail")")
    }

    /// The receiving person fails local authentication when accepting (Spec 8.7): nothing is
    /// sent, and each device says whose authentication failed.
    @Test func aFailedGateOnTheReceiverSendsNothing() async throws {
        let (devices, sent) = try await devices(receiverGate: .failed(.notRecognized))
        let result = await run(devices, sent: sent) { receiver, _ in try? await receiver.accept() }
        #expect(result.receiver == .ended(.notAuthenticated(by: .local)))
        #expect(result.sender == .ended(.notAuthenticated(by: .peer)))
        #expect(devices.reads.count == 0)
        let base = devices.store.base
        #expect(try await blocking { try base.accounts() }.isEmpty)
    }
}

/// What a test makes the store refuse.
fileprivate enum StoreRefusal: Sendable, CustomTestStringConvertible {
    case metadata(AccountStoreError)
    case credentials(CredentialStoreError)

    func apply(to store: RefusingStore) {
        switch self {
        case .metadata(let error): store.refuse(metadata: error)
        case .credentials(let error): store.refuse(credentials: error)
        }
    }

    var testDescription: String {
        switch self {
        case .metadata(let error): "metadata: \(error)"
        case .credentials(let error): "credentials: \(error)"
        }
    }
}
