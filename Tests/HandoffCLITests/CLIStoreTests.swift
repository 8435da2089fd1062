#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import AccountHandoffTestSupport
import Foundation
import Testing
import ThrowawaySecretService
import TestProcesses

/// The receiver's store as the real `handoff` binary opens it: refused before anything else
/// when unusable, never changed when not its own, never hanging on a held lock, always
/// finishing an interrupted import first, listable when read-only, and the keyring (the
/// default place for passwords) reported in one sentence when it cannot be used.
@Suite(.startsProcesses) struct CLIStoreTests {
    // MARK: Unusable paths

    /// `--store ""` would be the working directory: refused before anything else, and the
    /// working directory keeps its mode and contents.
    @Test(arguments: ["receive", "accounts"])
    func anEmptyStorePathIsRefusedAndTheWorkingDirectoryIsUntouched(command: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let working = scratch.file("working")
        try FileManager.default.createDirectory(at: working, withIntermediateDirectories: false)
        chmod(working.path, 0o755)
        let result = try await HandoffProcess.run([command, "--store", ""], stdin: try Scratch.validCode().text + "\n", directory: working)
        #expect(result.status == 64)
        #expect(result.stderr == "The store path is empty; pass --store DIR with a directory name, or leave --store out to use ./handoff-store.\n")
        #expect(result.stdout.isEmpty)
        #expect(Self.mode(working) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: working.path).isEmpty)
    }

    /// A directory that holds other things is not made into a store.
    @Test func aDirectoryHoldingOtherFilesIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try Data("notes\n".utf8).write(to: scratch.store.appendingPathComponent("notes.txt"))
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 70)
        #expect(result.stderr == "The store \(scratch.store.path) cannot be used: it already holds other files and no account store; choose an empty or new directory for --store.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.store.path) == ["notes.txt"])
    }

    /// A store directory this user cannot write to: one sentence naming it, before the code
    /// is asked for (the tests may run as root: the child runs without the power to ignore
    /// permissions).
    @Test func aStoreThatIsNotWritableIsNamedInASentence() async throws {
        let scratch = try Scratch()
        defer { chmod(scratch.store.path, 0o700); scratch.remove() }
        try await Self.makeStore(scratch.store)
        chmod(scratch.store.path, 0o500)
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                  withoutFileOverride: true)
        #expect(result.status == 70)
        #expect(result.stderr == "The store directory \(scratch.store.path) is not writable by you; make it writable (chmod u+w \(scratch.store.path)) or choose another --store directory.\n")
        #expect(result.stdout.isEmpty)
    }

    /// A files store whose credentials directory is not writable: a sentence, not an errno.
    @Test func aCredentialsDirectoryThatIsNotWritableIsNamedInASentence() async throws {
        let scratch = try Scratch()
        let credentials = scratch.store.appendingPathComponent(ReferenceAccountStore.credentialsDirectoryName)
        defer { chmod(credentials.path, 0o700); scratch.remove() }
        try await Self.makeStore(scratch.store)
        chmod(credentials.path, 0o500)
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                  withoutFileOverride: true)
        #expect(result.status == 70)
        #expect(result.stderr == "The store directory \(scratch.store.path) (or a file in it) is not writable by you; make it writable (chmod -R u+w \(scratch.store.path)) or choose another --store directory.\n")
        #expect(!result.all.contains("posix code"))
    }

    // MARK: The lock

    /// Another process holding the store's lock: a message, a bounded wait, then a sentence.
    @Test func aHeldLockGivesAMessageAndABoundedWait() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Self.makeStore(scratch.store)
        let holder = try LockHolder(scratch.store.appendingPathComponent("import.lock"))
        defer { holder.stop() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                  timeout: .seconds(30))
        #expect(result.status == 70)
        #expect(result.stdout == "Another import into \(scratch.store.path) is running; waiting up to 10 s...\n")
        #expect(result.stderr == "The store \(scratch.store.path) is still locked by another process after 10 s (an import or recovery still running, or a stuck process); let it finish or end it, then try again.\n")
    }

    /// Ctrl-C ends the wait at once.
    @Test func theWaitForAHeldLockEndsOnCtrlC() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Self.makeStore(scratch.store)
        let holder = try LockHolder(scratch.store.appendingPathComponent("import.lock"))
        defer { holder.stop() }
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(try Scratch.validCode().text + "\n")
        // A thread of its own sends Ctrl-C as soon as the message is out: the test's async
        // tasks may wait seconds for a turn while the whole suite runs on two cores.
        Thread {
            let deadline = Date().addingTimeInterval(180)
            while Date() < deadline, receiver.isRunning {
                if receiver.stdoutSoFar.contains("waiting up to 10 s...") {
                    receiver.signal(SIGINT)
                    return
                }
                usleep(2_000)
            }
        }.start()
        let result = await receiver.finish()
        #expect(result.status == 68)
        #expect(result.stderr == "Stopped waiting for the store \(scratch.store.path) (interrupted); nothing was changed.\n")
    }

    /// A lock left by a killed process does not block: the kernel released it.
    @Test func aLockFileLeftByAKilledProcessDoesNotBlock() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Self.makeStore(scratch.store)
        let holder = try LockHolder(scratch.store.appendingPathComponent("import.lock"))
        holder.stop()  // SIGKILL: the lock file stays, its lock does not
        let result = try await HandoffProcess.run(["accounts", "--store", scratch.store.path])
        #expect(result.status == 0)
        #expect(result.stdout == "No accounts in \(scratch.store.path).\n")
    }

    // MARK: Interrupted imports

    /// `handoff accounts` finishes or undoes an interrupted import (here: a credential staged
    /// by an import killed during validation), in files and in the keyring.
    @Test(arguments: ["files", "keyring"])
    func accountsFinishesAnInterruptedImportFirst(credentials: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try await Self.makeStore(scratch.store, credentials: credentials)
        let credentialStore = store.credentials
        _ = try await blocking { try credentialStore.stage(SecretBytes(utf8: "left by a killed import")) }
        #expect(try await CLIKeyring.stagedCredentials(in: scratch.store).count == 1)
        let result = try await HandoffProcess.run(["accounts", "--store", scratch.store.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "The store finished or undid an import that was interrupted earlier.\nNo accounts in \(scratch.store.path).\n")
        #expect(try await CLIKeyring.stagedCredentials(in: scratch.store).isEmpty)
    }

    /// A read-only store is listed (listing needs no write), with a note that an interrupted
    /// import waits for a writable store.
    @Test func aReadOnlyStoreIsListedWithANoteAboutTheInterruptedImport() async throws {
        let scratch = try Scratch()
        let credentials = scratch.store.appendingPathComponent(ReferenceAccountStore.credentialsDirectoryName)
        defer { chmod(scratch.store.path, 0o700); chmod(credentials.path, 0o700); scratch.remove() }
        let store = try await Self.makeStore(scratch.store)
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                                          username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let id = LocalAccountID(rawValue: "00000000-0000-4000-8000-0000000000c3")!
        let metadata = store.metadata
        try await blocking {
            let staged = try metadata.stage(SecretBytes(utf8: "stored password"))
            try metadata.commit(.add(id, account, credential: staged)) { _ in true }  // committed, not yet activated
        }
        chmod(credentials.path, 0o500)
        chmod(scratch.store.path, 0o500)
        let result = try await HandoffProcess.run(["accounts", "--store", scratch.store.path], withoutFileOverride: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("The store \(scratch.store.path) is read-only, so an interrupted import in it could not be finished or undone; make it writable and run 'handoff accounts' again.\nAccounts in \(scratch.store.path) (1); passwords are never shown:\n  Local ID \(id):\n"))
        #expect(result.stdout.contains("  │ E-mail address   ada@example.org\n"))
        #expect(result.stderr.isEmpty)
    }

    // MARK: The keyring

    /// The keyring is the default; when it cannot be reached, one sentence says what to do,
    /// before the code is asked for and before any store is created.
    @Test func anUnreachableDefaultKeyringIsOneSentence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = try ThrowawaySecretService.start(.noKeyring)
        defer { empty.stop() }
        let locked = try ThrowawaySecretService.start(.lockedKeyring)
        defer { locked.stop() }
        let cases: [(ThrowawaySecretService, String)] = [
            (empty, Self.noKeyringAnswers(scratch.store.path)),
            (locked, "The keyring is locked, so it cannot keep the passwords of the store \(scratch.store.path); unlock it in your keyring manager (GNOME Keyring/KWallet) and try again (\(Self.headless))\(Self.files).\n"),
        ]
        for (service, sentence) in cases {
            let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                      environment: ["DBUS_SESSION_BUS_ADDRESS": service.busAddress])
            #expect(result.status == 70)
            #expect(result.stderr == sentence)
            #expect(result.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: scratch.store.path), "no store was created")
        }
        let noBus = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                 environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": scratch.directory.path])
        #expect(noBus.status == 70)
        #expect(noBus.stderr == "No keyring can be reached for the store \(scratch.store.path) because there is no D-Bus session bus; log in to a desktop session and try again (\(Self.headless))\(Self.files).\n")
    }

    /// The advice for a machine without a desktop, which works there (the test keyring is started that way).
    static let headless = "without a desktop, run the commands inside 'dbus-run-session -- sh' after starting a keyring there with 'gnome-keyring-daemon --unlock --components=secrets' (it reads a keyring password from standard input)"
    static let files = "; or pass --credentials files to keep the passwords in files in the store directory"
    static func noKeyringAnswers(_ store: String) -> String {
        "No keyring (GNOME Keyring, KWallet or KeePassXC) answers on the D-Bus session bus for the store \(store): none was started, or its daemon stopped; start one and try again (\(headless))\(files).\n"
    }

    /// Two receivers creating the same new store at the same moment: both use it (the one
    /// that records second adopts the first one's choice), five times over. Each then goes on
    /// to its code, which names a port where nobody listens.
    @Test func twoReceiversCreatingOneStoreAtOnceBothUseIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for trial in 1...5 {
            let store = scratch.directory.appendingPathComponent("store-\(trial)")
            let code = try Scratch.validCode().text + "\n"
            async let first = HandoffProcess.run(scratch.receiveArguments(store: store), stdin: code)
            async let second = HandoffProcess.run(scratch.receiveArguments(store: store), stdin: code)
            for result in try await [first, second] {
                #expect(result.status == 70, "trial \(trial): \(result.stderr)")
                #expect(result.stderr.hasSuffix("Nothing was imported.\n") && result.stderr.contains("Nothing answered at 127.0.0.1:9"),
                        "trial \(trial): \(result.stderr)")
            }
            let record = try String(contentsOf: store.appendingPathComponent("credential-store"), encoding: .utf8)
            #expect(record.hasPrefix("keyring handoff-"), "one record, written once")
        }
    }

    /// The advice for a machine without a desktop works as written: inside dbus-run-session,
    /// with gnome-keyring-daemon --unlock reading a password, a new store keeps its passwords
    /// in that keyring (the receiver gets past the keyring to its code).
    @Test func theHeadlessKeyringAdviceWorksAsWritten() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let home = scratch.directory.appendingPathComponent("home")
        let runtime = scratch.directory.appendingPathComponent("runtime")
        for directory in [home, runtime] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        let script = "printf %s keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec \"$0\" \"$@\""
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                  environment: ["DBUS_SESSION_BUS_ADDRESS": "", "HOME": home.path,
                                                                "XDG_DATA_HOME": home.path, "XDG_RUNTIME_DIR": runtime.path],
                                                  wrapper: ["/usr/bin/dbus-run-session", "--", "/bin/sh", "-c", script])
        #expect(result.stderr.contains("Nothing answered at 127.0.0.1:9"), "\(result.stderr)")
        #expect(!result.stderr.contains("keyring"), "\(result.stderr)")
        let record = try String(contentsOf: scratch.store.appendingPathComponent("credential-store"), encoding: .utf8)
        #expect(record.hasPrefix("keyring handoff-"))
    }

    /// A keyring daemon that died is not "locked": nothing answers for the keyring any more.
    @Test func aKeyringDaemonThatDiedIsNotCalledLocked() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let service = try ThrowawaySecretService.start()
        defer { service.stop() }
        service.stopKeyringDaemon()
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n",
                                                  environment: ["DBUS_SESSION_BUS_ADDRESS": service.busAddress])
        #expect(result.status == 70)
        #expect(result.stderr == Self.noKeyringAnswers(scratch.store.path))
        #expect(!result.stderr.contains("locked"))
        #expect(!FileManager.default.fileExists(atPath: scratch.store.path), "no store was created")
    }

    /// A store keeps the place it was created with; asking for the other one is refused.
    @Test func aStoreKeepsWhereItsPasswordsGo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await Self.makeStore(scratch.store, credentials: "keyring")
        let result = try await HandoffProcess.run(scratch.receiveArguments(["--credentials", "files"]), stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 64)
        #expect(result.stderr == "The store \(scratch.store.path) keeps its passwords in the keyring, not in files; leave out --credentials or pass --credentials keyring.\n")
        let wrong = try await HandoffProcess.run(["accounts", "--store", scratch.store.path, "--credentials", "wallet"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("The option --credentials takes keyring or files."))
    }

    // MARK: Helpers

    /// A store as `handoff receive` creates it, its passwords in `credentials` (files or a
    /// fresh keyring namespace on the tests' keyring).
    @discardableResult
    static func makeStore(_ directory: URL, credentials: String = "files") async throws
        -> (metadata: ReferenceAccountStore, credentials: any CredentialStore) {
        let metadata = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let record = directory.appendingPathComponent("credential-store")
        guard credentials == "keyring" else {
            try Data("files\n".utf8).write(to: record)
            chmod(record.path, 0o600)
            return (metadata, metadata)
        }
        try CLIKeyring.service()
        let namespace = "cli-\(UUID().uuidString.lowercased())"
        try Data("keyring \(namespace)\n".utf8).write(to: record)
        chmod(record.path, 0o600)
        return (metadata, SecretServiceCredentialStore(namespace: namespace))
    }

    static func mode(_ url: URL) -> mode_t? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }
}

/// flock(1) holding an exclusive lock on a file until stopped (SIGKILL).
final class LockHolder: @unchecked Sendable {
    // Safety of @unchecked Sendable: `process` is started in init and only signalled afterwards.
    private let process = Process()

    init(_ file: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = ["--exclusive", "--no-fork", file.path, "/bin/sleep", "60"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                let busy = flock(descriptor, LOCK_EX | LOCK_NB) != 0
                if !busy { _ = flock(descriptor, LOCK_UN) }
                close(descriptor)
                if busy { return }
            }
            usleep(5_000)
        }
        stop()
        throw Failure()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "flock(1) did not take the lock within 10 s" }
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
