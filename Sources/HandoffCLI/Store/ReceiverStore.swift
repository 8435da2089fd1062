#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import Foundation

/// A receiver's store as the commands open it: SQLite metadata in the store directory, the
/// passwords in the keyring or in files there (``CredentialChoice``). Every opening first
/// finishes or undoes an interrupted import.
struct ReceiverStore {
    let directory: StorePath
    let metadata: ReferenceAccountStore
    let credentials: any CredentialStore
    let choice: CredentialChoice

    /// How long `handoff receive` waits for a store that another process holds locked.
    static let lockWait: Duration = .seconds(10)

    /// For `handoff receive`, before the transfer code is asked for: checks the location,
    /// opens (creating) the store, checks the keyring, waits a bounded time for another
    /// process's lock, finishes or undoes an interrupted import, and checks that both stores
    /// take writes now.
    static func openForImport(_ directory: StorePath, requested: String?, console: Console) async throws(CLIError) -> ReceiverStore {
        let opened = try await blockingStep { () throws(CLIError) in try openAndCheck(directory, requested: requested) }
        try await waitForLock(opened.metadata, directory: directory, console: console)
        return try await blockingStep { () throws(CLIError) in
            try opened.recover(console: console)
            do throws(AccountStoreError) { try opened.metadata.checkMetadataWritable() } catch { throw failure(error, directory: directory) }
            return opened
        }
    }

    /// The first steps of ``openForImport(_:requested:console:)``, up to the lock; blocks.
    private static func openAndCheck(_ directory: StorePath, requested: String?) throws(CLIError) -> ReceiverStore {
        _ = try directory.check(forWriting: true)
        let recorded = try CredentialChoice.recorded(in: directory)
        let chosen = try CredentialChoice.resolve(requested: requested, recorded: recorded, directory: directory)
        // The keyring is asked before anything is created, so a store is never left without
        // the record of where its passwords go.
        if case .keyring(let namespace) = chosen {
            do { try SecretServiceCredentialStore(namespace: namespace).checkCredentialsWritable() } catch {
                throw failure(error, directory: directory, choice: chosen, newStore: recorded == nil)
            }
        }
        let metadata = try open(directory)
        // Another process creating the same store at once may record first; its choice holds.
        let choice = recorded == nil ? try chosen.record(in: directory, requested: requested) : chosen
        let credentials = choice.store(metadata)
        do { try credentials.checkCredentialsWritable() } catch {
            throw failure(error, directory: directory, choice: choice, newStore: recorded == nil)
        }
        return ReceiverStore(directory: directory, metadata: metadata, credentials: credentials, choice: choice)
    }

    /// For `handoff accounts`: opens an existing store; finishes or undoes an interrupted
    /// import when it can, and says so when it cannot (a read-only store, an unreachable
    /// keyring). `nil` when there is no store yet.
    static func openForListing(_ directory: StorePath, requested: String?, console: Console) throws(CLIError) -> ReferenceAccountStore? {
        let state = try directory.check(forWriting: false)
        guard state != .missing else { return nil }
        let recorded = try CredentialChoice.recorded(in: directory)
        let choice = try CredentialChoice.resolve(requested: requested, recorded: recorded, directory: directory)
        guard state == .writable else {
            let metadata: ReferenceAccountStore
            do { metadata = try ReferenceAccountStore.openForReading(at: directory.url) } catch { throw failure(error, directory: directory) }
            if needsRecovery(metadata, credentials: choice.store(metadata)) {
                console.line(sentenceCatalog.sentence("store.readOnlyRecovery", .text(directory.path), in: .cli))
            }
            return metadata
        }
        let metadata = try open(directory)
        let credentials = choice.store(metadata)
        do { try credentials.checkCredentialsWritable() } catch {
            if needsRecovery(metadata, credentials: nil) {
                console.line(sentenceCatalog.sentence("store.recoveryFailed", .text(directory.path),
                                                      .text(CredentialChoice.unreachable(error, directory: directory, newStore: false)), in: .cli))
            }
            return metadata
        }
        try ReceiverStore(directory: directory, metadata: metadata, credentials: credentials, choice: choice).recover(console: console)
        return metadata
    }

    /// Finishes or undoes an interrupted import (nothing happens while another import holds
    /// the store: it is not interrupted). Blocks.
    func recover(console: Console) throws(CLIError) {
        let coordinator = ImportCoordinator(metadataStore: metadata, credentialStore: credentials, validator: NoValidation())
        do {
            let report = try coordinator.recover()
            if !report.foundNothing, !report.skippedBecauseImportIsRunning {
                console.line(sentenceCatalog.sentence("store.recovered", in: .cli))
            }
        } catch {
            throw CLIError(sentenceCatalog.sentence("store.recoveryError", .text(directory.path), .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
    }

    // MARK: Opening

    private static func open(_ directory: StorePath) throws(CLIError) -> ReferenceAccountStore {
        do { return try ReferenceAccountStore.open(at: directory.url, options: ReferenceStoreOptions(loosePermissions: .refuse)) } catch {
            throw failure(error, directory: directory)
        }
    }

    /// Whether a recovery would have work: a pending activation, or (when `credentials` can
    /// be listed) a staged credential.
    private static func needsRecovery(_ metadata: ReferenceAccountStore, credentials: (any CredentialStore)?) -> Bool {
        if let pending = try? metadata.pendingActivations(), !pending.isEmpty { return true }
        guard let credentials, let staged = try? credentials.stagedCredentials() else { return false }
        return !staged.isEmpty
    }

    /// Waits at most ``lockWait`` while another process holds the store's lock exclusively,
    /// saying so; Ctrl-C ends the wait at once.
    private static func waitForLock(_ metadata: ReferenceAccountStore, directory: StorePath, console: Console) async throws(CLIError) {
        if try await lease(metadata, directory) { return }
        // The handler is in place before the message, so a Ctrl-C that follows it is never lost.
        InterruptWatch.start()
        defer { InterruptWatch.stop() }
        console.line(sentenceCatalog.sentence("store.waitingForLock", .text(directory.path), .number(lockWait.components.seconds), in: .cli))
        let deadline = ContinuousClock.now + lockWait
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            if InterruptWatch.interrupted {
                throw CLIError(sentenceCatalog.sentence("store.lockWaitInterrupted", .text(directory.path), in: .cli), exitCode: .cancelled)
            }
            if try await lease(metadata, directory) { return }
        }
        throw CLIError(sentenceCatalog.sentence("store.stillLocked", .text(directory.path), .number(lockWait.components.seconds), in: .cli),
                       exitCode: .failure)
    }

    /// Whether a shared import lease can be had now (it is given back at once).
    private static func lease(_ metadata: ReferenceAccountStore, _ directory: StorePath) async throws(CLIError) -> Bool {
        try await blockingStep { () throws(CLIError) in
            do throws(AccountStoreError) {
                guard let lease = try metadata.acquireImportLeaseIfFree() else { return false }
                lease.release()
                return true
            } catch { throw failure(error, directory: directory) }
        }
    }

    // MARK: Sentences

    private static func failure(_ error: AccountStoreError, directory: StorePath) -> CLIError {
        if case .failed(let failure) = error, failure.domain == .posix, [EACCES, EPERM, EROFS].contains(failure.code) {
            return notWritable(directory)
        }
        if case .readOnly = error { return notWritable(directory) }
        if case .failed(let failure) = error, failure.domain == .posix, failure.code == ENOENT {
            let parent = (directory.path as NSString).deletingLastPathComponent
            return CLIError(sentenceCatalog.sentence("store.parentTakesNoFolders", .text(directory.path), .text(parent.isEmpty ? "." : parent), in: .cli),
                            exitCode: .failure)
        }
        return CLIError(sentenceCatalog.sentence("store.unusableError", .text(directory.path), .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
    }

    private static func failure(_ error: CredentialStoreError, directory: StorePath, choice: CredentialChoice, newStore: Bool) -> CLIError {
        switch (choice, error) {
        case (.keyring, .sessionBusUnavailable), (.keyring, .secretServiceUnavailable), (.keyring, .keyringLocked),
             (.keyring, .keyringHasNoDefaultCollection):
            return CLIError(CredentialChoice.unreachable(error, directory: directory, newStore: newStore), exitCode: .failure)
        case (.files, .failed(let failure)) where failure.domain == .posix && [EACCES, EPERM, EROFS].contains(failure.code):
            return notWritable(directory)
        default:
            return CLIError(sentenceCatalog.sentence("store.cannotKeepPasswords", .text(directory.path), .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
    }

    private static func notWritable(_ directory: StorePath) -> CLIError {
        CLIError(sentenceCatalog.sentence("store.notWritableTree", .text(directory.path), in: .cli),
                 exitCode: .failure)
    }
}

/// Recovery never validates: it only finishes or removes what a crash left.
private struct NoValidation: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .notChecked }
}
