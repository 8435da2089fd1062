#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// The journal that makes an import into a profile all or nothing.
///
/// Before the first change, the import copies every file it may change into the folder
/// `.handoff-import` inside the profile and then writes the manifest, which names each file and
/// says whether it was saved (with its mode) or did not exist. Every change to a profile file is
/// then written to a temporary file in the journal folder, flushed, and renamed over the file.
/// Removing the manifest commits the import; the copies are removed after it.
///
/// Before a profile file is replaced (and after NSS changed its key database), the SHA-256 of
/// what the import writes is recorded next to the copy (`NAME.written`).
///
/// A journal with a manifest is an import that did not commit: ``rollBack()`` (or
/// ``recover(_:)`` on the next run) puts every saved file back and removes the files that did
/// not exist, so the profile holds exactly the bytes it held before. Recovery does so only when
/// every journaled file still holds either its old bytes or the bytes the import wrote: when
/// Thunderbird used the profile after the crash and changed one, nothing is put back over its
/// changes and the journal is dropped. A journal folder without a manifest holds only copies
/// (the import stopped before its manifest, or after its commit): they are removed.
struct ImportJournal {
    static let folderName = ".handoff-import"
    static let manifestName = "manifest"
    static let header = "AccountHandoff Thunderbird import journal 1"
    /// The largest file the journal saves (a key database is a few hundred KiB).
    static let maximumFileByteCount = 256 << 20

    /// What the journal says about one profile file.
    enum Entry: Equatable {
        /// The file existed; its copy is `NAME.saved`, and this was its mode.
        case saved(name: String, mode: mode_t)
        /// The file did not exist; any file by that name is removed on rollback.
        case absent(name: String)

        var name: String {
            switch self {
            case .saved(let name, _), .absent(let name): name
            }
        }
    }

    /// What recovery found and did.
    enum Recovery: Equatable {
        /// No journal: nothing to do.
        case nothing
        /// An uncommitted import was undone: the listed files were put back or removed.
        case rolledBack([String])
        /// Copies left by an import that stopped before its manifest or after its commit were removed.
        case leftoversRemoved
        /// An uncommitted import was found, but the listed files changed since (Thunderbird
        /// used the profile): nothing was put back, and the journal was removed.
        case abandoned(changed: [String])
    }

    let profile: ProfileFolder
    /// The journal folder.
    let journal: ProfileFolder
    let entries: [Entry]
    let hook: ImportStepHook?

    // MARK: Beginning

    /// Saves each of `names` (or notes its absence), then writes the manifest: from then on a
    /// rollback restores them.
    ///
    /// - Throws: what failed; nothing in the profile was changed, and the journal folder is
    ///   removed again where possible.
    static func begin(in profile: ProfileFolder, saving names: [String], hook: ImportStepHook?) throws(ThunderbirdProfileError) -> ImportJournal {
        let journal = try makeFolder(in: profile)
        let folder = journal.descriptor
        do throws(ThunderbirdProfileError) {
            try reach(.journalFolderCreated, hook)
            var entries: [Entry] = []
            for name in names {
                guard let info = try profile.status(of: name) else {
                    entries.append(.absent(name: name))
                    continue
                }
                guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: profile.path(of: name)) }
                guard let bytes = try profile.read(name, maximumByteCount: maximumFileByteCount) else {
                    throw .fileOperationFailed(path: profile.path(of: name), operation: ProfileFileOperation.read.rawValue, code: ENOENT)
                }
                let mode = info.st_mode & 0o7777
                try writeFile(bytes, named: name + ".saved", mode: mode, in: folder, folderPath: profile.path(of: folderName))
                entries.append(.saved(name: name, mode: mode))
            }
            try sync(folder, profile.path(of: folderName))
            try reach(.journalCopiesSaved, hook)
            let manifest = ([header] + entries.map(line)).joined(separator: "\n") + "\n"
            try writeFile(Array(manifest.utf8), named: manifestName + ".new", mode: 0o600, in: folder, folderPath: profile.path(of: folderName))
            guard renameat(folder, manifestName + ".new", folder, manifestName) == 0 else {
                throw .fileOperationFailed(path: profile.path(of: folderName + "/" + manifestName), operation: ProfileFileOperation.written.rawValue, code: errno)
            }
            try sync(folder, profile.path(of: folderName))
            try reach(.journalWritten, hook)
            return ImportJournal(profile: profile, journal: journal, entries: entries, hook: hook)
        } catch {
            removeFolder(journal, in: profile)
            throw error
        }
    }

    // MARK: Changing

    /// Replaces the profile file `name` with `bytes` (mode 0600): written and flushed in the
    /// journal folder, then renamed over the file. The name must be one the journal saved.
    func replace(_ name: String, with bytes: [UInt8]) throws(ThunderbirdProfileError) {
        precondition(entries.contains { $0.name == name }, "only files the journal saved are changed")
        try recordWritten(name, digest: SHA256Digest.of(bytes))
        let temporary = name + ".new"
        try Self.writeFile(bytes, named: temporary, mode: 0o600, in: journal.descriptor, folderPath: journal.path)
        guard renameat(journal.descriptor, temporary, profile.descriptor, name) == 0 else {
            let code = errno
            unlinkat(journal.descriptor, temporary, 0)
            throw .fileOperationFailed(path: profile.path(of: name), operation: ProfileFileOperation.written.rawValue, code: code)
        }
        try profile.sync()
    }

    /// Records what another writer (NSS) left in the journaled files `names`, so that recovery
    /// knows those bytes as the import's own.
    func recordWritten(_ names: [String]) throws(ThunderbirdProfileError) {
        for name in names {
            let bytes = try profile.read(name, maximumByteCount: Self.maximumFileByteCount)
            try recordWritten(name, digest: bytes.flatMap { SHA256Digest.of($0) }, absent: bytes == nil)
        }
    }

    private func recordWritten(_ name: String, digest: [UInt8]?, absent: Bool = false) throws(ThunderbirdProfileError) {
        let text: String
        if absent {
            text = "absent\n"
        } else {
            guard let digest else { throw .keyDatabaseUnusable(path: profile.path, code: NSSRuntime.lastError) }
            text = Self.hex(digest)
        }
        try Self.writeFile(Array(text.utf8), named: name + ".written", mode: 0o600, in: journal.descriptor, folderPath: journal.path)
    }

    /// Commits: removes the manifest (the point of no return), then the copies.
    func commit() throws(ThunderbirdProfileError) {
        guard unlinkat(journal.descriptor, Self.manifestName, 0) == 0 else {
            throw .fileOperationFailed(path: journal.path(of: Self.manifestName), operation: ProfileFileOperation.removed.rawValue, code: errno)
        }
        try Self.sync(journal.descriptor, journal.path)
        try Self.reach(.journalCommitted, hook)
        Self.removeFolder(journal, in: profile)
        try Self.reach(.journalRemoved, hook)
    }

    /// Undoes every change: puts the saved files back, removes the ones that did not exist,
    /// then removes the journal.
    func rollBack() throws(ThunderbirdProfileError) {
        try Self.restore(entries, folder: journal.descriptor, in: profile)
        Self.removeFolder(journal, in: profile)
    }

    // MARK: Recovery

    /// Finishes what an interrupted import left: rolls back an uncommitted one, removes the
    /// leftovers of one that stopped before its manifest or after its commit.
    ///
    /// - Throws: ``ThunderbirdProfileError/journalInvalid(path:problem:)`` for a manifest that
    ///   cannot be read (nothing is touched then), or the file error that stopped the rollback
    ///   (it is safe to run again).
    static func recover(_ profile: ProfileFolder) throws(ThunderbirdProfileError) -> Recovery {
        guard let info = try profile.status(of: folderName) else { return .nothing }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .journalInvalid(path: profile.path(of: folderName), problem: ThunderbirdDiagnosis("diagnosis.journal.notAFolder")) }
        let journal = try profile.subfolder(folderName)
        guard let manifest = try journal.read(manifestName, maximumByteCount: 1 << 16) else {
            removeFolder(journal, in: profile)
            return .leftoversRemoved
        }
        let entries = try parse(manifest, path: journal.path(of: manifestName))
        let changed = try changedSince(entries, journal: journal, in: profile)
        guard changed.isEmpty else {
            removeFolder(journal, in: profile)
            return .abandoned(changed: changed)
        }
        try restore(entries, folder: journal.descriptor, in: profile)
        removeFolder(journal, in: profile)
        return .rolledBack(entries.map(\.name))
    }

    // MARK: Helpers

    /// The journaled files that hold neither their old bytes nor the bytes the import wrote.
    private static func changedSince(_ entries: [Entry], journal: ProfileFolder, in profile: ProfileFolder) throws(ThunderbirdProfileError) -> [String] {
        var changed: [String] = []
        for entry in entries {
            let current = try profile.read(entry.name, maximumByteCount: maximumFileByteCount)
            var old: [UInt8]?
            if case .saved(let name, _) = entry {
                // A copy that an interrupted recovery already put back is the current file.
                old = try journal.read(name + ".saved", maximumByteCount: maximumFileByteCount) ?? current
            }
            if current == old { continue }
            let written = try journal.read(entry.name + ".written", maximumByteCount: 256).map { String(decoding: $0, as: UTF8.self) }
            let now = current.map { bytes in SHA256Digest.of(bytes).map(hex) ?? "" } ?? "absent\n"
            if written == now { continue }
            changed.append(entry.name)
        }
        return changed
    }

    /// Lowercase hexadecimal and a line feed.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined() + "\n"
    }

    private static func line(_ entry: Entry) -> String {
        switch entry {
        case .saved(let name, let mode): "saved \(name) \(String(mode, radix: 8))"
        case .absent(let name): "absent \(name)"
        }
    }

    private static func parse(_ bytes: [UInt8], path: String) throws(ThunderbirdProfileError) -> [Entry] {
        guard let text = String(validating: bytes, as: UTF8.self), text.hasSuffix("\n") else {
            throw .journalInvalid(path: path, problem: ThunderbirdDiagnosis("diagnosis.journal.manifestNotUTF8"))
        }
        var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header) else { throw .journalInvalid(path: path, problem: ThunderbirdDiagnosis("diagnosis.journal.unknownHeader")) }
        lines.removeFirst()
        var entries: [Entry] = []
        for line in lines {
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard words.count >= 2, isSafeName(words[1]), !entries.contains(where: { $0.name == words[1] }) else {
                throw .journalInvalid(path: path, problem: ThunderbirdDiagnosis("diagnosis.journal.unusableName"))
            }
            switch (words[0], words.count) {
            case ("saved", 3):
                guard let mode = mode_t(words[2], radix: 8), mode <= 0o7777 else { throw .journalInvalid(path: path, problem: ThunderbirdDiagnosis("diagnosis.journal.modeNotOctal")) }
                entries.append(.saved(name: words[1], mode: mode))
            case ("absent", 2):
                entries.append(.absent(name: words[1]))
            default:
                throw .journalInvalid(path: path, problem: ThunderbirdDiagnosis("diagnosis.journal.unknownLine"))
            }
        }
        return entries
    }

    /// A plain file name: letters, digits, `.`, `_`, `-`, not starting with a dot... except the
    /// profile's own dot files are never journaled, so a leading dot is refused.
    private static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.first != "." && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-"
        }
    }

    /// Puts each saved file back (its copy given its mode, then renamed over it) and removes
    /// each file that did not exist. A saved entry whose copy is gone was already put back.
    private static func restore(_ entries: [Entry], folder: Int32, in profile: ProfileFolder) throws(ThunderbirdProfileError) {
        for entry in entries {
            switch entry {
            case .saved(let name, let mode):
                let copy = name + ".saved"
                if fchmodat(folder, copy, mode, 0) != 0 {
                    guard errno == ENOENT else { throw .fileOperationFailed(path: profile.path(of: name), operation: ProfileFileOperation.restored.rawValue, code: errno) }
                    continue
                }
                guard renameat(folder, copy, profile.descriptor, name) == 0 else {
                    throw .fileOperationFailed(path: profile.path(of: name), operation: ProfileFileOperation.restored.rawValue, code: errno)
                }
            case .absent(let name):
                guard unlinkat(profile.descriptor, name, 0) == 0 || errno == ENOENT else {
                    throw .fileOperationFailed(path: profile.path(of: name), operation: ProfileFileOperation.removed.rawValue, code: errno)
                }
            }
        }
        try profile.sync()
    }

    private static func makeFolder(in profile: ProfileFolder) throws(ThunderbirdProfileError) -> ProfileFolder {
        guard mkdirat(profile.descriptor, folderName, 0o700) == 0 else {
            switch errno {
            case EROFS, EACCES, EPERM: throw .readOnly(path: profile.path)
            default: throw .fileOperationFailed(path: profile.path(of: folderName), operation: ProfileFileOperation.created.rawValue, code: errno)
            }
        }
        do { return try profile.subfolder(folderName) } catch {
            unlinkat(profile.descriptor, folderName, AT_REMOVEDIR)
            throw error
        }
    }

    /// Removes every file in the journal folder and the folder; best effort (what is left is
    /// removed by the next recovery).
    private static func removeFolder(_ journal: ProfileFolder, in profile: ProfileFolder) {
        for name in entryNames(journal.descriptor) { unlinkat(journal.descriptor, name, 0) }
        _ = fsync(journal.descriptor)
        unlinkat(profile.descriptor, folderName, AT_REMOVEDIR)
        _ = fsync(profile.descriptor)
    }

    private static func entryNames(_ folder: Int32) -> [String] {
        let copy = dup(folder)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `name` in `folder` with `mode`, writes `bytes` and flushes it.
    private static func writeFile(_ bytes: [UInt8], named name: String, mode: mode_t, in folder: Int32, folderPath: String) throws(ThunderbirdProfileError) {
        unlinkat(folder, name, 0)
        let file = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .fileOperationFailed(path: folderPath + "/" + name, operation: ProfileFileOperation.written.rawValue, code: errno) }
        var failure: Int32?
        if fchmod(file, mode) != 0 {
            failure = errno
        } else if let code = bytes.withUnsafeBytes({ BlockingCall.writeAll(file, $0) }) {
            failure = code
        } else if BlockingCall.retryingInterrupted("fsync", { fsync(file) }) != 0 {
            failure = errno
        }
        if close(file) != 0, failure == nil { failure = errno }
        if let failure {
            unlinkat(folder, name, 0)
            throw .fileOperationFailed(path: folderPath + "/" + name, operation: ProfileFileOperation.written.rawValue, code: failure)
        }
    }

    private static func sync(_ folder: Int32, _ path: String) throws(ThunderbirdProfileError) {
        guard BlockingCall.retryingInterrupted("fsync", { fsync(folder) }) == 0 || errno == EINVAL else {
            throw .fileOperationFailed(path: path, operation: ProfileFileOperation.flushedToDisk.rawValue, code: errno)
        }
    }

    static func reach(_ step: ImportStep, _ hook: ImportStepHook?) throws(ThunderbirdProfileError) {
        if let code = hook?(step) { throw .fileOperationFailed(path: "(test step \(step.rawValue))", operation: ProfileFileOperation.written.rawValue, code: code) }
    }
}
