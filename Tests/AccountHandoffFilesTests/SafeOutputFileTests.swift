@testable import AccountHandoff
import Foundation
import Testing

/// SafeOutputFile against what another local user, or a mistyped path, can put at the target.
@Suite struct SafeOutputFileTests {
    /// A fresh folder under the system's temporary folder, removed by `remove()`.
    struct Folder {
        let path: String

        init() throws {
            let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
            var template = Array((base + "safe-output-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            path = String(cString: try #require(made))
        }

        func file(_ name: String) -> String { path + "/" + name }
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    static func status(_ path: String) throws -> stat {
        var status = stat()
        try #require(lstat(path, &status) == 0)
        return status
    }

    /// `SafeOutputFile.write` on the I/O pool, where it may block, as an
    /// app calls it; the blocking-call check is on.
    static func write(_ bytes: [UInt8], to path: String, existing: SafeOutputFile.ExistingFile = .replace) async throws {
        try await BlockingIOPool.shared.run { _ throws(SafeOutputFileError) in try SafeOutputFile.write(bytes, to: path, existing: existing) }
    }

    static func contents(_ path: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: path)))
    }

    let secret = Array("AH:a transfer code".utf8)

    @Test func createsANewFileWithModeSixHundred() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try await Self.write(secret, to: folder.file("code.svg"))
        let status = try Self.status(folder.file("code.svg"))
        #expect(status.st_mode & S_IFMT == S_IFREG)
        #expect(status.st_mode & 0o7777 == 0o600)
        #expect(try Self.contents(folder.file("code.svg")) == secret)
        #expect(try folder.names() == ["code.svg"])  // no temporary file left
    }

    @Test func replacesAnExistingRegularFileAtomicallyWithModeSixHundred() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.file("code.png")
        try #require(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        // A reader that opened the old file keeps reading the old one: the new file is a new inode.
        let reader = try #require(FileHandle(forReadingAtPath: path))
        defer { try? reader.close() }
        let oldInode = try Self.status(path).st_ino
        try await Self.write(secret, to: path)
        let status = try Self.status(path)
        #expect(status.st_mode & 0o7777 == 0o600)
        #expect(status.st_ino != oldInode)
        #expect(try Self.contents(path) == secret)
        #expect(try reader.readToEnd() == Data("old".utf8))
        #expect(try folder.names() == ["code.png"])
    }

    @Test func refusesAnExistingFileWhenAskedTo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.file("account.json")
        try #require(FileManager.default.createFile(atPath: path, contents: Data("kept".utf8)))
        await #expect(throws: SafeOutputFileError.alreadyExists(path)) { try await Self.write(secret, to: path, existing: .refuse) }
        #expect(try Self.contents(path) == Array("kept".utf8))
        #expect(try folder.names() == ["account.json"])
        // A new name is created.
        try await Self.write(secret, to: folder.file("other.json"), existing: .refuse)
        #expect(try Self.contents(folder.file("other.json")) == secret)
        #expect(try Self.status(folder.file("other.json")).st_mode & 0o7777 == 0o600)
        #expect(try folder.names() == ["account.json", "other.json"])
    }

    @Test(arguments: [SafeOutputFile.ExistingFile.replace, .refuse])
    func neverFollowsOrReplacesASymbolicLink(existing: SafeOutputFile.ExistingFile) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let victim = folder.file("victim")
        try #require(FileManager.default.createFile(atPath: victim, contents: Data("victim".utf8), attributes: [.posixPermissions: 0o644]))
        let link = folder.file("code.svg")
        try #require(symlink(victim, link) == 0)
        let dangling = folder.file("dangling.svg")
        try #require(symlink(folder.file("would-be-created"), dangling) == 0)

        await #expect(throws: SafeOutputFileError.symbolicLink(link)) { try await Self.write(secret, to: link, existing: existing) }
        await #expect(throws: SafeOutputFileError.symbolicLink(dangling)) { try await Self.write(secret, to: dangling, existing: existing) }
        #expect(try Self.status(link).st_mode & S_IFMT == S_IFLNK)
        #expect(try Self.contents(victim) == Array("victim".utf8))
        #expect(try Self.status(victim).st_mode & 0o7777 == 0o644)
        #expect(try folder.names() == ["code.svg", "dangling.svg", "victim"])  // nothing created through the dangling link
    }

    @Test func refusesAFIFOWithoutOpeningIt() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let fifo = folder.file("code.svg")
        try #require(mkfifo(fifo, 0o644) == 0)
        // Opening a FIFO without a reader would block; the refusal comes at once.
        await #expect(throws: SafeOutputFileError.notARegularFile(fifo, kind: .fifo)) { try await Self.write(secret, to: fifo) }
        #expect(try Self.status(fifo).st_mode & S_IFMT == S_IFIFO)
        #expect(try folder.names() == ["code.svg"])
        #expect(SafeOutputFileError.notARegularFile("/tmp/x", kind: .fifo).description
            == "The output path /tmp/x is a named pipe (FIFO), not a regular file, and is left alone; give the path of a regular file or a new name.")
    }

    @Test func refusesADirectory() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let directory = folder.file("out")
        try #require(mkdir(directory, 0o755) == 0)
        await #expect(throws: SafeOutputFileError.notARegularFile(directory, kind: .directory)) { try await Self.write(secret, to: directory) }
        #expect(try Self.status(directory).st_mode & S_IFMT == S_IFDIR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(SafeOutputFileError.notARegularFile("/tmp/out", kind: .directory).description
            == "The output path /tmp/out is a folder, not a file; give the name of a file inside it.")
    }

    /// The device number of `/dev/null` (major 1, minor 3), encoded as the C `makedev` does.
    #if os(Linux)
    static let nullDevice: dev_t = 1 << 8 | 3
    #else
    static let nullDevice: dev_t = 1 << 24 | 3
    #endif

    /// The `/dev/full` case, on a device node of our own (same numbers as
    /// `/dev/null`), since only root may create one.
    @Test(.enabled(if: getuid() == 0, "creating a device node needs root"))
    func refusesADeviceNodeAndLeavesIt() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let device = folder.file("full")
        try #require(mknod(device, S_IFCHR | 0o666, Self.nullDevice) == 0)
        await #expect(throws: SafeOutputFileError.notARegularFile(device, kind: .characterDevice)) { try await Self.write(secret, to: device) }
        let status = try Self.status(device)
        #expect(status.st_mode & S_IFMT == S_IFCHR)
        #expect(status.st_rdev == Self.nullDevice)
        #expect(try folder.names() == ["full"])
    }

    @Test func refusesAUnixSocket() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.file("s")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        await #expect(throws: SafeOutputFileError.notARegularFile(path, kind: .socket)) { try await Self.write(secret, to: path) }
    }

    @Test func aMissingFolderOrABadNameIsSaidSo() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let missing = folder.file("no/such/code.svg")
        await #expect(throws: SafeOutputFileError.folderUnavailable(missing, errno: ENOENT)) { try await Self.write(secret, to: missing) }
        #expect(SafeOutputFileError.folderUnavailable(missing, errno: ENOENT).description
            == "The folder for \(missing) does not exist; create it or choose another path.")
        try await Self.write(secret, to: folder.file("plain"))
        let underFile = folder.file("plain/code.svg")
        await #expect(throws: SafeOutputFileError.folderUnavailable(underFile, errno: ENOTDIR)) { try await Self.write(secret, to: underFile) }
        for bad in ["", folder.path + "/", folder.file("."), folder.file(".."), "/"] {
            await #expect(throws: SafeOutputFileError.invalidPath(bad)) { try await Self.write(secret, to: bad) }
        }
        #expect(try folder.names() == ["plain"])
    }

    @Test func writesFromARawBufferAndEmptyFiles() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let bytes: [UInt8] = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let big = folder.file("big")
        try await BlockingIOPool.shared.run { _ in try bytes.withUnsafeBytes { buffer in try SafeOutputFile.write(buffer, to: big) } }
        #expect(try Self.contents(folder.file("big")) == bytes)
        try await Self.write([], to: folder.file("empty"))
        #expect(try Self.contents(folder.file("empty")) == [])
        #expect(try Self.status(folder.file("empty")).st_mode & 0o7777 == 0o600)
    }

    @Test func aBareNameIsInTheCurrentFolderAndOnlyTheLastComponentIsTheName() throws {
        #expect(try SafeOutputFile.split("code.svg") == (".", "code.svg"))
        #expect(try SafeOutputFile.split("/code.svg") == ("/", "code.svg"))
        #expect(try SafeOutputFile.split("a/b/code.svg") == ("a/b", "code.svg"))
        #expect(try SafeOutputFile.split("../code.svg") == ("..", "code.svg"))
        #expect(throws: SafeOutputFileError.invalidPath("a\u{0}b")) { try SafeOutputFile.split("a\u{0}b") }
    }
}
