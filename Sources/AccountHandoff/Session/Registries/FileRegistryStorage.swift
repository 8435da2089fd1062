#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a registry's records in one file (Spec 6.3), written atomically and durably: a new
/// file (mode 0600) in the same directory, flushed, renamed over the old one, and the
/// directory flushed. A symbolic link or a non-regular file at the path is refused.
///
/// Several processes may share the file: ``update(_:)`` holds an exclusive `flock` on
/// `<path>.lock` from reading the records to renaming the new file into place, so each change
/// sees every change made before it. The kernel drops the lock of a process that dies, so a
/// lock file left by a killed process never blocks, and the rename keeps the records whole.
///
/// Every method blocks (a lock, a read, `fsync`): the registries call them where blocking is
/// allowed, and so should anyone else (``BlockingIOPool``).
///
/// The file holds no secret: transfer IDs, expiries and outcome identifiers, one per line
/// after a format line.
public struct FileRegistryStorage: RegistryStorage {
    /// The first line of every registry file.
    static let header = "AccountHandoff registry v2"

    /// The file's path.
    public let path: String

    /// A storage at `path`; the file is created on the first save.
    public init(path: String) {
        self.path = path
    }

    /// Reads the records; none when the file does not exist yet.
    ///
    /// - Throws: ``RegistryStorageFailure/notARegularFile`` for a link or special file,
    ///   ``RegistryStorageFailure/unreadable(errno:)``, ``RegistryStorageFailure/corrupt``.
    public func load() throws(RegistryStorageFailure) -> [RegistryRecord] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise block until a writer appears;
        // this way it opens at once and fstat refuses it below. Regular files ignore the flag.
        let descriptor = BlockingCall.retryingInterrupted("open") { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        if descriptor < 0 {
            if errno == ENOENT { return [] }
            if errno == ELOOP { throw .notARegularFile }
            throw .unreadable(errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { BlockingCall.read(descriptor, into: $0.baseAddress, count: $0.count) }
            if count < 0 { throw .unreadable(errno: errno) }
            if count == 0 { break }
            contents += buffer[0..<count]
            guard contents.count <= 16 << 20 else { throw .corrupt }
        }
        return try Self.parse(contents)
    }

    /// Reads the records, applies `change` and writes them, all under an exclusive `flock` on
    /// `<path>.lock` (created with mode 0600, never through a symbolic link), so that no other
    /// process's update interleaves (Spec 6.3).
    ///
    /// - Parameter change: edits the records just read; returns whether to write them.
    /// - Returns: the records as stored afterwards.
    /// - Throws: ``RegistryStorageFailure/unwritable(errno:)`` when the lock cannot be taken or
    ///   the records not written, ``RegistryStorageFailure/notARegularFile`` for a link or
    ///   special file at either path, and the errors of ``load()``; the old file is intact then.
    public func update(_ change: (inout [RegistryRecord]) -> Bool) throws(RegistryStorageFailure) -> [RegistryRecord] {
        let lock: FileLock
        do {
            lock = try FileLock.open(path + ".lock")
            try lock.lock(.exclusive)
        } catch {
            switch error {
            case .symbolicLink, .notARegularFile: throw .notARegularFile
            case .system(_, let code): throw .unwritable(errno: code)
            }
        }
        defer { lock.unlockAndClose() }
        var records = try load()
        guard change(&records) else { return records }
        try save(records)
        return records
    }

    /// Writes the records atomically and durably. Use ``update(_:)`` to change records that
    /// another process may change too.
    ///
    /// - Throws: ``RegistryStorageFailure/unwritable(errno:)``,
    ///   ``RegistryStorageFailure/notARegularFile``; the old file is intact then.
    public func save(_ records: [RegistryRecord]) throws(RegistryStorageFailure) {
        // The one atomic 0600 writer: a temporary file, flushed, renamed over, folder flushed.
        do { try SafeOutputFile.write(Self.render(records), to: path, existing: .replace) } catch {
            switch error {
            case .symbolicLink, .notARegularFile: throw .notARegularFile
            case .folderUnavailable(_, let code), .writeFailed(_, _, let code): throw .unwritable(errno: code)
            case .invalidPath, .alreadyExists: throw .unwritable(errno: EINVAL)
            }
        }
    }

    static func render(_ records: [RegistryRecord]) -> [UInt8] {
        var text = header + "\n"
        for record in records {
            text += "\(Hex.encode(record.transferID.bytes)) \(record.expiry) \(record.outcomeIdentifier ?? "-")\n"
        }
        return Array(text.utf8)
    }

    static func parse(_ contents: [UInt8]) throws(RegistryStorageFailure) -> [RegistryRecord] {
        guard !contents.isEmpty else { return [] }
        guard contents.last == 0x0A, let text = String(validatingUTF8Bytes: contents) else { throw .corrupt }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.first == Substring(header) else { throw .corrupt }
        lines = lines.dropFirst()
        var records: [RegistryRecord] = []
        for line in lines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3,
                  let idBytes = Hex.decode(String(fields[0])), let transferID = TransferID(bytes: idBytes),
                  fields[0].allSatisfy({ $0.isASCII && ($0.isNumber || ("a"..."f").contains($0)) }),
                  let expiry = UInt32(fields[1]), String(expiry) == fields[1],
                  !fields[2].isEmpty, fields[2].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
            else { throw .corrupt }
            records.append(RegistryRecord(transferID: transferID, expiry: expiry,
                                          outcomeIdentifier: fields[2] == "-" ? nil : String(fields[2])))
        }
        return records
    }
}
