import AccountHandoff
@testable import AccountHandoffThunderbird
import Foundation
import Testing

/// A throwaway profile folder in a temporary directory, with an NSS key database made by NSS's
/// own `certutil` (Debian's libnss3-tools), the way a profile's database starts.
struct ScratchProfile {
    let root: URL
    var directory: URL { root.appendingPathComponent("profile", isDirectory: true) }
    var profile: ThunderbirdProfile { ThunderbirdProfile(name: "scratch", directory: directory) }

    /// A profile folder with a key database (no primary password unless `primaryPassword`),
    /// and `prefs` as its prefs.js when given.
    init(keyDatabase: Bool = true, primaryPassword: String? = nil, prefs: String? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-tb-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("profile"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root.appendingPathComponent("profile").path)
        if keyDatabase { try Self.makeKeyDatabase(in: directory, password: primaryPassword) }
        if let prefs { try write("prefs.js", prefs) }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Every entry under the profile folder: path, kind, mode and contents (a link's target).
    func tree() throws -> [String: String] { try ProfileTree.snapshot(directory) }

    /// `certutil -N` makes cert9.db and key4.db, with `password` or an empty one.
    static func makeKeyDatabase(in directory: URL, password: String?) throws {
        var arguments = ["-N", "-d", "sql:" + directory.path]
        let passwordFile = directory.deletingLastPathComponent().appendingPathComponent("nss-password")
        if let password {
            try Data((password + "\n").utf8).write(to: passwordFile)
            arguments += ["-f", passwordFile.path]
        } else {
            arguments.append("--empty-password")
        }
        defer { try? FileManager.default.removeItem(at: passwordFile) }
        let status = try Tool.run("/usr/bin/certutil", arguments)
        try #require(status == 0, "certutil -N failed with status \(status) (is libnss3-tools installed?)")
    }
}

/// A snapshot of a folder tree, to prove that it did not change byte for byte.
enum ProfileTree {
    static func snapshot(_ directory: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: directory.path) else { return entries }
        while let relative = walker.nextObject() as? String {
            let path = directory.appendingPathComponent(relative).path
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let mode = String(info.st_mode & 0o7777, radix: 8)
            switch info.st_mode & S_IFMT {
            case S_IFLNK: entries[relative] = "link \(mode) -> \((try? manager.destinationOfSymbolicLink(atPath: path)) ?? "?")"
            case S_IFDIR: entries[relative] = "folder \(mode)"
            default:
                let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
                entries[relative] = "file \(mode) \(data.count) bytes \(data.base64EncodedString())"
            }
        }
        return entries
    }
}

/// Runs a program and waits for it.
enum Tool {
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : pipe
        try process.run()
        if let input {
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
