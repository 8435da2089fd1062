import AccountHandoff
import AccountHandoffSimulation
import Foundation

/// The local-authentication gate of one device (Spec 8.7): answers at once as the header
/// says, or asks the person and waits until the script answers (or the task is cancelled:
/// the prompt is dismissed).
final class ScriptedGate: LocalAuthenticator, @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    private let immediate: LocalAuthenticationResult?
    private var waiting: CheckedContinuation<LocalAuthenticationResult, Never>?
    private(set) var purposes: [LocalAuthenticationPurpose] = []
    /// The result of the last answered prompt.
    private(set) var lastResult: LocalAuthenticationResult?

    init(immediate: LocalAuthenticationResult?) { self.immediate = immediate }

    var gateDeclaration: GateDeclaration { .asks }

    var isAsking: Bool { waiting != nil }

    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        purposes.append(purpose)
        if let immediate {
            lastResult = Task.isCancelled ? LocalAuthenticationResult.cancelled : immediate
            return lastResult!
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LocalAuthenticationResult, Never>) in
                if Task.isCancelled { continuation.resume(returning: .cancelled) } else { waiting = continuation }
            }
        } onCancel: { [self] in
            // Runs on the fuzzer's thread too: `Task.cancel()` is called from a job or the script.
            answer(.cancelled)
        }
        lastResult = result
        return result
    }

    /// The person answers the prompt, if one is showing.
    func answer(_ result: LocalAuthenticationResult) {
        guard let waiting else { return }
        self.waiting = nil
        waiting.resume(returning: result)
    }
}

/// The receiving app's importer: prepares an offer (or finds its store unavailable), is ready
/// or needs a choice first, and imports with the status the script gives, at once or when the
/// script says (a cancelled import rolls back and reports `cancelled`).
final class ScriptedImporter: AccountImporter, @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    let plan: UInt8
    var choicesMissing: Int
    var storeFailsAtAccept: Bool
    private var waiting: CheckedContinuation<ReceiptStatus, Never>?
    /// Every credential handed to the importer, with its bytes then.
    private(set) var imported: [(credential: SecretBytes, bytes: [UInt8])] = []
    private(set) var prepared = 0
    private(set) var abandoned = 0

    /// `plan`: bit 0 the store is unavailable when preparing, bit 1 when accepting, bits 2-3
    /// how many accepts need a choice first, bit 4 the import waits for the script, bits 5-7
    /// the receipt status.
    init(plan: UInt8) {
        self.plan = plan
        choicesMissing = Int(plan >> 2) & 3
        storeFailsAtAccept = plan & 2 != 0
    }

    var isImporting: Bool { waiting != nil }

    func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> ScriptedPreparation {
        prepared += 1
        if plan & 1 != 0 { throw .storeUnavailable(reason: "The fuzz store is locked; unlock it and try again.") }
        return ScriptedPreparation(importer: self)
    }

    var status: ReceiptStatus { ReceiptStatus.allCases[Int(plan >> 5) % ReceiptStatus.allCases.count] }

    func importAccount(_ account: ImportedAccount) async -> ImportReport {
        imported.append((account.credential, account.credential.revealedBytes()))
        var status = self.status
        if plan & 0x10 != 0 {
            status = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<ReceiptStatus, Never>) in
                    if Task.isCancelled { continuation.resume(returning: .cancelled) } else { waiting = continuation }
                }
            } onCancel: { [self] in
                finishImport(.cancelled)
            }
        }
        return ImportReport(status: status, message: "The fuzz import ended as \(status.identifier).")
    }

    /// The script ends a waiting import.
    func finishImport(_ status: ReceiptStatus) {
        guard let waiting else { return }
        self.waiting = nil
        waiting.resume(returning: status)
    }

    func noteAbandoned() { abandoned += 1 }
}

/// A preparation of ``ScriptedImporter``.
struct ScriptedPreparation: AccountImportPreparation, @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    let importer: ScriptedImporter

    /// Memory only: the check runs in place, on the fuzzer's thread.
    var checkReadyMayBlock: Bool { false }

    func checkReady() throws(ImportNotReady) {
        if importer.choicesMissing > 0 {
            importer.choicesMissing -= 1
            throw .choiceRequired
        }
        if importer.storeFailsAtAccept { throw .storeUnavailable(reason: "The fuzz store filled up; free some space and try again.") }
    }

    func importAccount(_ account: ImportedAccount) async -> ImportReport { await importer.importAccount(account) }

    func abandon() { importer.noteAbandoned() }
}

/// The sending app's keychain: returns the password in guarded memory (each copy is
/// remembered, to check that the session wiped it), or fails, or returns one the state
/// machine refuses (empty or too long), or finds no guarded memory to copy it into.
final class ScriptedKeychain: @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    let mode: UInt8
    private(set) var handedOut: [SecretBytes] = []
    /// Whether the gate had said yes when the password was read.
    private(set) var readsWithoutGate = 0
    let gate: ScriptedGate

    init(mode: UInt8, gate: ScriptedGate) {
        self.mode = mode
        self.gate = gate
    }

    func read(_ account: AccountMetadata) throws -> SecretBytes {
        if gate.lastResult != .authenticated { readsWithoutGate += 1 }
        let bytes: [UInt8]
        switch mode % 8 {
        case 1: throw KeychainLocked()
        case 2: bytes = []
        case 3: bytes = [UInt8](repeating: 0x61, count: HandoffSender.maximumCredentialByteCount + 1)
        default: bytes = Scenario.standard.passwordBytes
        }
        if mode % 8 == 4 {
            // The app's own guarded copy finds no memory (Spec 8.5): the password cannot be read.
            throw HandoffError.secureMemoryUnavailable(.lockLimitReached)
        }
        let secret = try SecretBytes(copying: bytes)
        handedOut.append(secret)
        return secret
    }

    struct KeychainLocked: Error {}
}
