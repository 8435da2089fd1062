#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// The receiver's local account store, a stand-in for the Keychain plus the app's database:
/// one directory (mode 0700) with, per account, `<AccountLinkID>.json` (metadata) and
/// `<AccountLinkID>.credential` (the password bytes). Every file is created with mode 0600
/// and written atomically (temporary file, fsync, then link or rename), so a reader sees the
/// old account or the new one, never half of either. An existing account is never replaced
/// unless the caller asks.
struct AccountStore {
    let directory: URL

    /// What went wrong while storing.
    enum StoreError: Error, Equatable {
        /// An account with this link ID is already stored and replacing was not allowed.
        case accountExists
        /// A system call failed.
        case system(operation: String, errno: Int32)
    }

    func metadataURL(_ linkID: AccountLinkID) -> URL { directory.appendingPathComponent("\(linkID).json") }
    func credentialURL(_ linkID: AccountLinkID) -> URL { directory.appendingPathComponent("\(linkID).credential") }

    /// Whether an account with this link ID is stored.
    func contains(_ linkID: AccountLinkID) -> Bool {
        FileManager.default.fileExists(atPath: metadataURL(linkID).path)
    }

    /// Stores the account: the credential first, then the metadata that makes it visible.
    ///
    /// - Throws: ``StoreError/accountExists`` when `replace` is false and the account exists
    ///   (nothing is changed then); ``StoreError/system(operation:errno:)`` otherwise.
    func save(_ account: ImportedAccount, replace: Bool, now: Date) throws(StoreError) -> URL {
        let linkID = account.metadata.linkID
        try makeDirectory()
        guard replace || !contains(linkID) else { throw .accountExists }
        var record = [String: Any]()
        let fields = AccountRecord(account.metadata)
        record["accountLinkID"] = fields.accountLinkID
        record["displayName"] = fields.displayName
        record["emailAddress"] = fields.emailAddress
        record["username"] = fields.username
        record["imapHost"] = fields.imapHost
        record["imapPort"] = fields.imapPort
        record["imapSecurity"] = fields.imapSecurity
        record["importedAt"] = ISO8601DateFormatter().string(from: now)
        record["credentialFile"] = credentialURL(linkID).lastPathComponent
        let json: Data
        do { json = try JSONSerialization.data(withJSONObject: record, options: [.prettyPrinted, .sortedKeys]) } catch {
            throw .system(operation: "JSON encoding", errno: 0)
        }
        // The password goes from guarded memory straight to the file, never through a Swift array.
        let credentialTemporary = try writeTemporary { descriptor in
            account.credential.withUnsafeBytes { Self.writeAll(descriptor, $0) }
        }
        let metadataTemporary: URL
        do {
            metadataTemporary = try writeTemporary { descriptor in json.withUnsafeBytes { Self.writeAll(descriptor, $0) } }
        } catch {
            unlink(credentialTemporary.path)
            throw error
        }
        defer {
            unlink(credentialTemporary.path)
            unlink(metadataTemporary.path)
        }
        if replace {
            try move(credentialTemporary, to: credentialURL(linkID))
            try move(metadataTemporary, to: metadataURL(linkID))
        } else {
            // link() refuses an existing target, so a concurrent import cannot be overwritten.
            try linkNew(credentialTemporary, to: credentialURL(linkID))
            do { try linkNew(metadataTemporary, to: metadataURL(linkID)) } catch {
                unlink(credentialURL(linkID).path)
                throw error
            }
        }
        syncDirectory()
        return metadataURL(linkID)
    }

    private func makeDirectory() throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = directory.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
            throw .system(operation: "mkdir", errno: EACCES)
        }
        guard mkdir(directory.path, 0o700) == 0 || errno == EEXIST else { throw .system(operation: "mkdir", errno: errno) }
    }

    /// Creates a new 0600 file next to the targets, fills it (`fill` returns 0 or an errno),
    /// flushes it to disk.
    private func writeTemporary(_ fill: (Int32) -> Int32) throws(StoreError) -> URL {
        var random = [UInt8](repeating: 0, count: 8)
        random.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
        let url = directory.appendingPathComponent(".incoming-\(Hex.encode(random)).tmp")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system(operation: "open", errno: errno) }
        let failure = fill(descriptor)
        guard failure == 0, fsync(descriptor) == 0 else {
            let code = failure != 0 ? failure : errno
            close(descriptor)
            unlink(url.path)
            throw .system(operation: failure != 0 ? "write" : "fsync", errno: code)
        }
        guard close(descriptor) == 0 else {
            unlink(url.path)
            throw .system(operation: "close", errno: errno)
        }
        return url
    }

    /// Writes every byte; returns 0 or the failing errno.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written == 0 ? EIO : errno }
            offset += written
        }
        return 0
    }

    private func move(_ source: URL, to target: URL) throws(StoreError) {
        guard rename(source.path, target.path) == 0 else { throw .system(operation: "rename", errno: errno) }
    }

    private func linkNew(_ source: URL, to target: URL) throws(StoreError) {
        guard link(source.path, target.path) == 0 else {
            throw errno == EEXIST ? .accountExists : .system(operation: "link", errno: errno)
        }
    }

    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
