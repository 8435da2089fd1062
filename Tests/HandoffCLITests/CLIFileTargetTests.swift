#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestProcesses

/// Files the CLI writes: the QR images hold the code, so they are for their owner
/// only, and a path that is not a regular file is never replaced; the store directory is
/// private; a code works once per store.
@Suite(.startsProcesses) struct CLIFileTargetTests {
    @Test func qrImagesAreCreatedForTheirOwnerOnly() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let svg = scratch.file("code.svg"), png = scratch.file("code.png"), replaced = scratch.file("old.svg")
        try Data("old".utf8).write(to: replaced)
        chmod(replaced.path, 0o644)
        let result = try await HandoffProcess.run(["qr", "--svg", svg.path, "--png", png.path], stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let again = try await HandoffProcess.run(["qr", "--svg", replaced.path], stdin: try Scratch.validCode().text + "\n")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: replaced, encoding: .utf8).contains("<svg"), "a regular file at the path is replaced")

        let sentSVG = scratch.file("sent.svg")
        let sender = try HandoffProcess(scratch.sendArguments(["--svg", sentSVG.path]))
        _ = try #require(await sender.transferCode())
        sender.signal(SIGINT)
        #expect(await sender.finish().status == 68)
        for file in [svg, png, replaced, sentSVG] {
            #expect(Self.mode(file.path) == 0o600, "\(file.lastPathComponent)")
        }
    }

    /// A FIFO, a directory, a symbolic link (to a file, or dangling) and a device node at the
    /// target: each is refused with its own sentence and left exactly as it was.
    @Test(arguments: ["fifo", "directory", "link", "dangling link", "device"])
    func qrRefusesATargetThatIsNotARegularFile(kind: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = scratch.file("target")
        let linked = scratch.file("linked")
        let described: String
        switch kind {
        case "fifo":
            try #require(mkfifo(target.path, 0o600) == 0)
            described = "a named pipe (FIFO)"
        case "directory":
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
            described = "a folder"
        case "link":
            try Data("precious".utf8).write(to: linked)
            try FileManager.default.createSymbolicLink(at: target, withDestinationURL: linked)
            described = "a symbolic link"
        case "dangling link":
            try FileManager.default.createSymbolicLink(at: target, withDestinationURL: linked)
            described = "a symbolic link"
        default:
            // Like /dev/null (1, 3); mknod needs root, which the CI has.
            try #require(mknod(target.path, S_IFCHR | 0o600, 0x0103) == 0, "mknod needs root")
            described = "a character device"
        }
        let before = Self.identity(target.path)
        let code = try Scratch.validCode().text
        for option in ["--svg", "--png"] {
            let result = try await HandoffProcess.run(["qr", option, target.path], stdin: code + "\n")
            #expect(result.status == 70)
            #expect(result.stderr.hasPrefix("The output path \(target.path) is \(described)"), "\(result.stderr)")
        }
        let sender = try await HandoffProcess.run(scratch.sendArguments(["--svg", target.path]))
        #expect(sender.status == 70)
        #expect(sender.stderr.hasPrefix("The output path \(target.path) is \(described)"), "\(sender.stderr)")
        #expect(Self.identity(target.path) == before, "the \(kind) was changed")
        if kind == "link" { #expect(try String(contentsOf: linked, encoding: .utf8) == "precious") }
        if kind == "dangling link" { #expect(!FileManager.default.fileExists(atPath: linked.path), "the link was followed") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
    }

    /// A store directory open to group and others is refused before the code is asked for,
    /// and left exactly as it is (the CLI never changes the mode of a directory it did not create).
    @Test func anOpenStoreDirectoryIsRefusedAndLeftAsItIs() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: false)
        chmod(scratch.store.path, 0o777)
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 70)
        #expect(result.stderr == "The store \(scratch.store.path) has mode 777, which lets other users in, so it is not used; restrict it with 'chmod 700 \(scratch.store.path)' or choose another --store directory.\n")
        #expect(result.stdout.isEmpty, "the code was not asked for")
        #expect(Self.mode(scratch.store.path) == 0o777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.store.path).isEmpty)
    }

    /// A store path that is a symbolic link, or another user's directory, is refused before
    /// connecting; nothing is written through it.
    @Test(arguments: ["link", "foreign"])
    func aLinkedOrForeignStoreIsRefused(kind: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let elsewhere = scratch.file("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let expected: String
        if kind == "link" {
            try FileManager.default.createSymbolicLink(at: scratch.store, withDestinationURL: elsewhere)
            expected = "The store \(scratch.store.path) cannot be used: it is a symbolic link; use a real directory for the account store.\n"
        } else {
            try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: false)
            try #require(chown(scratch.store.path, 65_534, 65_534) == 0, "chown needs root")
            expected = "The store \(scratch.store.path) cannot be used: it belongs to nobody; use a directory you own.\n"
        }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 70)
        #expect(result.stderr == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.store.path).isEmpty)
    }

    /// A store of root's, used by another user (here nobody), names its owner as root.
    @Test(.enabled(if: getuid() == 0, "runs handoff as nobody, which needs root"))
    func aStoreOfRootsIsNamedAsRoots() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let result = try await HandoffProcess.run(scratch.receiveArguments(["--credentials", "files"]), stdin: try Scratch.validCode().text + "\n",
                                                  userID: 65_534)
        #expect(result.status == 70)
        #expect(result.stderr == "The store \(scratch.store.path) cannot be used: it belongs to root; use a directory you own.\n")
    }

    /// A code works once per store, across `receive` runs: a second run while the first is
    /// still in the transfer, and a run after it ended, are refused as already used (and the
    /// sender does not notice the second device at all).
    @Test func aCodeUsedOnceIsRefusedOnTheNextRunWithTheSameStore() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        let alreadyUsed = "The transfer failed. This code was already used on this device; ask the sending device for a new code. Nothing was imported.\n"
        let again = try await HandoffProcess.run(scratch.receiveArguments(), stdin: pair.code + "\n")
        #expect(again.status == 70)
        #expect(again.stderr == alreadyUsed)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(!sent.all.contains("Ignored") && !sent.all.contains("Warning"), "the second run reached the sender")

        let afterwards = try await HandoffProcess.run(scratch.receiveArguments(), stdin: pair.code + "\n")
        #expect(afterwards.status == 70)
        #expect(afterwards.stderr == alreadyUsed)
    }

    private static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    /// Type, inode, device number and link target, as `lstat` sees them.
    private static func identity(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "absent" }
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
        return "\(status.st_mode) \(status.st_ino) \(status.st_rdev) \(status.st_size) \(link)"
    }
}
