#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
@testable import AccountHandoffThunderbird
import Foundation
import Testing
import TestProcesses

/// Bad input leaves the profile byte for byte as it was (every file, link and mode under the
/// profile folder), with a sentence that says what is wrong.
@Suite(.startsProcesses) struct BadInputTests {
    @Test func aCorruptPreferencesFileIsRefused() async throws {
        let scratch = try await Self.profileWithAccount()
        defer { scratch.remove() }
        try scratch.write("prefs.js", try scratch.read("prefs.js") + "user_pref(\"mail.server.server1.port\", 99999999999);\n")
        let before = try scratch.tree()
        let expected = ThunderbirdProfileError.preferencesInvalid(path: scratch.directory.path + "/prefs.js", line: 21,
                                                                  problem: ThunderbirdDiagnosis("diagnosis.preferences.integerTooLarge", .text("99999999999")))
        await #expect(throws: expected) { try await Self.prepare(Self.bob, into: scratch) }
        #expect(expected.description == "The preferences file \(scratch.directory.path)/prefs.js could not be read at line 21 (the integer 99999999999 is not a 32-bit integer), so the profile is left unchanged. Start Thunderbird with the profile once, which rewrites the file, or restore it from a backup.")
        await #expect(throws: expected) { try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: nil) }
        try await Self.settle(scratch)
        #expect(try scratch.tree() == before)
    }

    @Test func loginsFromAnotherKeyDatabaseAreRefused() async throws {
        let other = try await Self.profileWithAccount()
        defer { other.remove() }
        let scratch = try await Self.profileWithAccount(Self.bob)
        defer { scratch.remove() }
        try scratch.write("logins.json", try other.read("logins.json"))
        let before = try scratch.tree()
        let expected = ThunderbirdProfileError.loginsFromAnotherKeyDatabase(path: scratch.directory.path + "/logins.json")
        await #expect(throws: expected) { try await Self.prepare(Accounts.ada(host: "imap.example.net"), into: scratch) }
        await #expect(throws: expected) { try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: nil) }
        #expect(expected.description.hasPrefix("The saved logins in \(scratch.directory.path)/logins.json were encrypted with another profile's key database (key4.db)"))
        try await Self.settle(scratch)
        #expect(try scratch.tree() == before)
    }

    @Test func aProfileOfANewerThunderbirdIsLeftAlone() async throws {
        let scratch = try await Self.profileWithAccount()
        defer { scratch.remove() }
        try scratch.write("compatibility.ini", "[Compatibility]\nLastVersion=160.0_20270101000000/20270101000000\nLastOSABI=Linux_x86_64-gcc3\n")
        let before = try scratch.tree()
        let expected = ThunderbirdProfileError.newerThunderbird(path: scratch.directory.path, version: "160.0", newestKnownMajorVersion: 153)
        await #expect(throws: expected) { try await Self.prepare(Self.bob, into: scratch) }
        #expect(expected.description == "The profile \(scratch.directory.path) was last used by Thunderbird 160.0, newer than the versions this program knows (up to 153), so this program leaves it alone. Update this program, then try again.")
        try await Self.settle(scratch)
        #expect(try scratch.tree() == before)
    }

    /// Another process holds the record lock as Thunderbird does (`fcntl(F_SETLK)` on
    /// `.parentlock`); the real Thunderbird is in ``RealThunderbirdTests``.
    @Test func aProfileLockedByAnotherProcessIsLeftAlone() async throws {
        let scratch = try await Self.profileWithAccount()
        defer { scratch.remove() }
        let holder = try LockHolder(scratch.directory.appendingPathComponent(".parentlock"))
        defer { holder.stop() }
        let before = try scratch.tree()
        let expected = ThunderbirdProfileError.thunderbirdRunning(path: scratch.directory.path, processID: holder.pid)
        await #expect(throws: expected) { try await Self.prepare(Self.bob, into: scratch) }
        #expect(expected.description == "Thunderbird (process \(holder.pid)) is using the profile \(scratch.directory.path), so it is left unchanged. Quit Thunderbird, then try again.")
        try await Self.settle(scratch)
        #expect(try scratch.tree() == before)
    }

    @Test func aReadOnlyProfileIsLeftAlone() async throws {
        let scratch = try await Self.profileWithAccount()
        defer {
            chmod(scratch.directory.path, 0o700)
            scratch.remove()
        }
        chmod(scratch.directory.path, 0o500)
        let before = try scratch.tree()
        // As root the probe runs without the power to ignore file permissions.
        let launcher = geteuid() == 0
            ? ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--inh-caps", "-dac_override,-dac_read_search,-fowner", "--"]
            : []
        let output = try ImportProbe.run(Self.importArguments(scratch, account: "bob"), input: Accounts.password + "\n", launcher: launcher)
        #expect(output == "ERROR \(ThunderbirdProfileError.readOnly(path: scratch.directory.path).description)\n")
        #expect(output.contains("cannot be written (it is read-only or not yours), so it is left unchanged. Make it writable for your user, then try again."))
        #expect(try scratch.tree() == before)
    }

    /// A real full disk: the profile on a small tmpfs that is then filled, in a mount
    /// namespace of the probe's own (so no mount outlives the test, however it ends).
    @Test(.enabled(if: geteuid() == 0, "mounting a small file system needs root"))
    func aFullDiskLeavesTheProfileUnchanged() async throws {
        let scratch = try await Self.profileWithAccount()
        defer { scratch.remove() }
        let mount = scratch.root.appendingPathComponent("small", isDirectory: true)
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: false)
        let probe = try ImportProbe.binary().path
        // Copy the profile in, fill the disk, list the profile, import, list it again.
        let script = """
            set -e
            mount -t tmpfs -o size=4m tmpfs "$1"
            cp -a "$2" "$1/profile"
            dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null || true
            list() { (cd "$1/profile" && find . -printf '%p %y %m %s %l\\n' | sort && find . -type f -exec sha256sum {} + | sort); }
            list "$1" > "$1/../before.txt"
            "$3" import --profile "$1/profile" --host imap.example.com --port 993 --user bob --email bob@example.com --link 0E7A5D44-2C1B-4F3A-9D8E-7F6A5B4C3D2E < "$4" || true
            list "$1" > "$1/../after.txt"
            """
        try Data((Accounts.password + "\n").utf8).write(to: scratch.root.appendingPathComponent("password"))
        let output = try ImportProbe.command("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                                  mount.path, scratch.directory.path, probe,
                                                                  scratch.root.appendingPathComponent("password").path])
        print("On a full disk the probe said: \(output)")
        let before = try String(contentsOf: scratch.root.appendingPathComponent("before.txt"), encoding: .utf8)
        let after = try String(contentsOf: scratch.root.appendingPathComponent("after.txt"), encoding: .utf8)
        #expect(before.contains("./prefs.js f 600"))
        #expect(after == before, "the profile on the full disk changed: \(Set(after.split(separator: "\n")).symmetricDifference(before.split(separator: "\n")))")
        #expect(output.hasPrefix("FINISHED storeFailed The account could not be written into the Thunderbird profile profile, so the profile was left unchanged. The profile file \(mount.path)/profile/.handoff-import/"), "\(output)")
        #expect(output.hasSuffix("could not be written: no space left on the device (ENOSPC). The profile is unchanged; free some space, then try again.\n"), "\(output)")
    }

    /// A write that fails at any step of the transaction is undone before the import reports.
    @Test(arguments: ImportStep.allCases.filter { !$0.isCommitted })
    func aFailureAtEveryStepIsUndone(step: ImportStep) async throws {
        let scratch = try ScratchProfile()
        defer { scratch.remove() }
        let before = try scratch.tree()
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation(), hook: { $0 == step ? ENOSPC : nil })
        let outcome = await (try importer.prepare(Accounts.ada())).complete(metadata: Accounts.ada(), credential: Accounts.secret())
        #expect(outcome == .failed(.fileOperationFailed(path: "(test step \(step.rawValue))", operation: "written", code: ENOSPC),
                                   profile: scratch.profile))
        #expect(outcome.receiptStatus == .storeFailed)
        await importer.waitUntilReleased()
        #expect(try scratch.tree() == before, "after a failure at \(step.rawValue)")
    }

    @Test func aPrimaryPasswordIsAskedForAndChecked() async throws {
        let scratch = try ScratchProfile(primaryPassword: "primary secret")
        defer { scratch.remove() }
        let before = try scratch.tree()
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        await #expect(throws: ThunderbirdProfileError.primaryPasswordRequired(path: scratch.directory.path)) { try await importer.check() }
        importer.usePrimaryPassword(Accounts.secret("not it"))
        await #expect(throws: ThunderbirdProfileError.primaryPasswordWrong(path: scratch.directory.path)) { try await importer.check() }
        await importer.waitUntilReleased()
        #expect(try scratch.tree() == before)
        importer.usePrimaryPassword(Accounts.secret("primary secret"))
        _ = try await importer.check()
        let outcome = await (try importer.prepare(Accounts.ada())).complete(metadata: Accounts.ada(), credential: Accounts.secret())
        #expect(outcome.receiptStatus == .imported, "\(outcome.message)")
        await #expect(throws: ThunderbirdProfileError.primaryPasswordRequired(path: scratch.directory.path)) {
            try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: nil)
        }
        let read = try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: nil, primaryPassword: Accounts.secret("primary secret"))
        #expect(Accounts.text(read.password) == Accounts.password)
    }

    // MARK: Helpers

    static let bob = Accounts.ada(host: "imap.example.com", user: "bob", linkID: AccountLinkID(uuid: UUID()), email: "bob@example.com")

    /// A profile that holds an account (and so its key, logins and preferences) and whose lock
    /// Thunderbird has used (an empty `.parentlock`).
    static func profileWithAccount(_ account: AccountMetadata = Accounts.ada()) async throws -> ScratchProfile {
        let scratch = try ScratchProfile()
        try Data().write(to: scratch.directory.appendingPathComponent(".parentlock"))
        try await ImportConflictTests.importAccount(account, into: scratch)
        return scratch
    }

    static func prepare(_ account: AccountMetadata, into scratch: ScratchProfile) async throws -> ThunderbirdPreparedImport {
        try await ThunderbirdImporter(profile: scratch.profile, validator: NoValidation()).prepare(account)
    }

    /// Waits until every lock of the profile is released.
    static func settle(_ scratch: ScratchProfile) async throws {
        await ThunderbirdImporter(profile: scratch.profile, validator: NoValidation()).waitUntilReleased()
    }

    static func importArguments(_ scratch: ScratchProfile, account: String) -> [String] {
        ["import", "--profile", scratch.directory.path, "--host", "imap.example.com", "--port", "993", "--user", account,
         "--email", "\(account)@example.com"]
    }
}

/// A process that holds a POSIX record lock on a file, as Thunderbird holds `.parentlock`.
final class LockHolder {
    let pid: Int32
    private let process: Process

    init(_ file: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\nprint('locked', flush=True)\ntime.sleep(600)", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        pid = process.processIdentifier
        _ = output.fileHandleForReading.availableData  // "locked"
    }

    func stop() {
        // SIGKILL: a child of Foundation's Process may inherit blocked signals and sleep through SIGTERM.
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }
}
