#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import Foundation

/// The credential files: the stand-in for the Keychain. One directory (mode 0700) holds
/// `account-<local ID>.credential` (active) and `staged-<uuid>.credential` (staged) files,
/// each created with mode 0600 by the package's one durable writer
/// (``AccountHandoff/SafeOutputFile/createDurably(_:in:writing:after:)``), written from
/// guarded memory, synced, and replaced only by `rename`, so a file always holds a whole
/// credential. Every method blocks: the import runs them on the ``AccountHandoff/BlockingIOPool``.
struct CredentialFiles {
    /// Largest credential file the store reads.
    static let maximumCredentialByteCount = 4096

    let directory: CheckedDirectory
    let hook: ReferenceStoreStepHook?

    static func activeName(_ account: LocalAccountID) -> String { "account-\(account.rawValue).credential" }
    static func stagedName(_ staged: StagedCredential) -> String { "\(staged.name).credential" }

    /// Writes `credential` to a new `staged-<uuid>.credential` file. On failure the partial
    /// file is removed.
    func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential {
        guard credential.count > 0 else { throw .emptyCredential }
        guard credential.count <= Self.maximumCredentialByteCount else { throw .credentialTooLarge(byteCount: credential.count) }
        guard let staged = StagedCredential(name: "staged-\(UUID().uuidString.lowercased())") else {
            preconditionFailure("a UUID-based staged name is always valid")
        }
        let name = Self.stagedName(staged)
        // The password goes from guarded memory straight to the file.
        let written: Result<Void, SafeOutputFile.NewFileFailure<StoreFailure>> = credential.withUnsafeBytes { bytes in
            do throws(SafeOutputFile.NewFileFailure<StoreFailure>) {
                try SafeOutputFile.createDurably(name, in: directory.descriptor, writing: bytes) { (step) throws(StoreFailure) in
                    switch step {
                    case .created: try reach(.stageFileCreated)
                    case .written: try reach(.stageFileWritten)
                    case .flushed: try reach(.stageFileSynced)
                    }
                }
            } catch { return .failure(error) }
            return .success(())
        }
        do throws(StoreFailure) {
            switch written {
            case .success:
                try POSIX.sync(directory.descriptor, directory.path)
            case .failure(let failure):
                // The file was removed again; its folder entry is flushed too, unless it was never made.
                if case .creating = failure {} else { _ = SafeOutputFile.flush(directory.descriptor) }
                throw Self.stageFailure(failure, name)
            }
        } catch { throw .failed(error) }
        return staged
    }

    /// The store's words for a failed staging write of the file `name`.
    private static func stageFailure(_ failure: SafeOutputFile.NewFileFailure<StoreFailure>, _ name: String) -> StoreFailure {
        switch failure {
        case .creating(let code): StoreFailure(operation: "openat(\(name))", domain: .posix, code: code)
        case .settingMode(let code): StoreFailure(operation: "fchmod(\(name))", domain: .posix, code: code)
        case .writing(let code): StoreFailure(operation: "write(\(name))", domain: .posix, code: code)
        case .flushing(let code): StoreFailure(operation: "fsync(\(name))", domain: .posix, code: code)
        case .closing(let code): StoreFailure(operation: "close(\(name))", domain: .posix, code: code)
        case .hook(let failure): failure
        }
    }

    /// Renames the staged file over the account's credential file.
    func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        let source = Self.stagedName(staged)
        let target = Self.activeName(account)
        guard let info = try entry(source) else { throw .credentialNotFound }
        guard info.isRegularFile else { throw .unsafeLocation(.notARegularFile(path: directory.path + "/" + source)) }
        do { try directory.requireRegularFileOrNothing(target) } catch { throw error.credentialStoreError }
        guard renameat(directory.descriptor, source, directory.descriptor, target) == 0 else {
            throw .failed(POSIX.failure("renameat(\(source), \(target))"))
        }
        do {
            try reach(.activateRenamed)
            try POSIX.sync(directory.descriptor, directory.path)
        } catch { throw .failed(error) }
    }

    /// Deletes a file; a missing one is success.
    func remove(_ name: String, step: ReferenceStoreStep?) throws(CredentialStoreError) {
        if unlinkat(directory.descriptor, name, 0) != 0 {
            guard errno == ENOENT else { throw .failed(POSIX.failure("unlinkat(\(name))")) }
            return
        }
        do {
            if let step { try reach(step) }
            try POSIX.sync(directory.descriptor, directory.path)
        } catch { throw .failed(error) }
    }

    /// The staged names present, sorted.
    func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] {
        try names(prefix: "staged-").compactMap { StagedCredential(name: $0) }
    }

    /// The accounts with a credential file, sorted.
    func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] {
        try names(prefix: "account-").compactMap { name in
            LocalAccountID(rawValue: String(name.dropFirst("account-".count)))
        }
    }

    /// Reads a credential file into guarded memory. The read buffer is wiped before it is freed.
    func read(_ name: String) throws(CredentialStoreError) -> SecretBytes {
        let descriptor = BlockingCall.retryingInterrupted("openat") { openat(directory.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: throw .credentialNotFound
            case ELOOP: throw .unsafeLocation(.symbolicLink(path: directory.path + "/" + name))
            default: throw .failed(POSIX.failure("openat(\(name))"))
            }
        }
        defer { close(descriptor) }
        let info: stat
        do { info = try POSIX.status(of: descriptor, name) } catch { throw .failed(error) }
        guard info.isRegularFile else { throw .unsafeLocation(.notARegularFile(path: directory.path + "/" + name)) }
        let size = Int(info.st_size)
        guard size > 0 else { throw .emptyCredential }
        guard size <= Self.maximumCredentialByteCount else { throw .credentialTooLarge(byteCount: size) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 1)
        defer {
            POSIX.wipe(buffer)
            buffer.deallocate()
        }
        var filled = 0
        while filled <= size {
            let count = BlockingCall.read(descriptor, into: buffer.baseAddress!.advanced(by: filled), count: buffer.count - filled)
            if count < 0 { throw .failed(POSIX.failure("read(\(name))")) }
            if count == 0 { break }
            filled += count
        }
        guard filled == size else { throw .failed(StoreFailure(operation: "read(\(name)) changed size", domain: .posix, code: EIO)) }
        do { return try GuardedCopy.make(UnsafeRawBufferPointer(rebasing: buffer[..<filled])) } catch {
            throw .failed(StoreFailure(operation: "guarded allocation", domain: .posix, code: ENOMEM))
        }
    }

    /// Creates and removes a probe file, proving the directory takes new files now.
    func checkWritable() throws(CredentialStoreError) {
        do { try directory.recheck() } catch { throw error.credentialStoreError }
        let probe = "probe-\(UUID().uuidString.lowercased())"
        let descriptor = BlockingCall.retryingInterrupted("openat") {
            openat(directory.descriptor, probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw .failed(POSIX.failure("openat(\(probe))")) }
        close(descriptor)
        guard unlinkat(directory.descriptor, probe, 0) == 0 else { throw .failed(POSIX.failure("unlinkat(\(probe))")) }
    }

    func entry(_ name: String) throws(CredentialStoreError) -> stat? {
        do { return try directory.entry(name) } catch { throw error.credentialStoreError }
    }

    private func names(prefix: String) throws(CredentialStoreError) -> [String] {
        let all: [String]
        do { all = try POSIX.names(in: directory.descriptor, directory.path) } catch { throw .failed(error) }
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".credential") }
            .map { String($0.dropLast(".credential".count)) }
    }

    private func reach(_ step: ReferenceStoreStep) throws(StoreFailure) {
        if let failure = hook?(step) { throw failure }
    }
}
