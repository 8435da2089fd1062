#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
internal import CNSS
import Foundation

/// A profile's NSS key database (`key4.db`, with `cert9.db`), opened as a slot of its own.
///
/// Only ``ProfileWork`` uses it; it is closed by ``close()`` (or when released).
final class ProfileKeyDatabase {
    /// How the database is opened.
    enum Mode {
        /// Nothing is written; enough to decrypt and to encrypt with an existing key.
        case readOnly
        /// The database may be created or changed (a new SDR key); the import journals its
        /// files first.
        case readWrite
    }

    let profilePath: String
    let mode: Mode
    private var slot: OpaquePointer?

    private init(profilePath: String, mode: Mode, slot: OpaquePointer) {
        self.profilePath = profilePath
        self.mode = mode
        self.slot = slot
    }

    deinit { close() }

    /// Opens the key database of the profile at `profilePath` (an absolute path).
    ///
    /// - Throws: ``ThunderbirdProfileError/keyDatabaseMissing(path:hasLegacyDatabase:)`` when
    ///   opening read-only and there is no `key4.db`;
    ///   ``ThunderbirdProfileError/unsupportedProfilePath(path:)``;
    ///   ``ThunderbirdProfileError/keyDatabaseUnusable(path:code:)``.
    static func open(profilePath: String, mode: Mode) throws(ThunderbirdProfileError) -> ProfileKeyDatabase {
        guard !profilePath.contains(where: { $0 == "'" || $0 == "\"" || $0 == "\\" }) else {
            throw .unsupportedProfilePath(path: profilePath)
        }
        if mode == .readOnly, !exists(profilePath + "/key4.db") {
            throw .keyDatabaseMissing(path: profilePath, hasLegacyDatabase: exists(profilePath + "/key3.db"))
        }
        if let code = NSSRuntime.start() { throw .keyDatabaseUnusable(path: profilePath, code: code) }
        // The token description only has to be unique in this process (at most 32 characters).
        let token = "handoff-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20)
        let flags = mode == .readOnly ? " flags=readOnly" : ""
        let specification = "configdir='sql:\(profilePath)' tokenDescription='\(token)'\(flags)"
        guard let slot = SECMOD_OpenUserDB(specification) else {
            throw .keyDatabaseUnusable(path: profilePath, code: NSSRuntime.lastError)
        }
        return ProfileKeyDatabase(profilePath: profilePath, mode: mode, slot: slot)
    }

    /// Whether the database was never given a password (a database NSS just created).
    var isUninitialised: Bool { PK11_NeedUserInit(openSlot) != 0 }

    /// Whether a primary password protects the keys and has not been given yet.
    var needsPrimaryPassword: Bool {
        PK11_NeedUserInit(openSlot) == 0 && PK11_NeedLogin(openSlot) != 0 && PK11_IsLoggedIn(openSlot, nil) == 0
    }

    /// Unlocks the keys with the primary password; the password is passed to NSS from guarded
    /// memory, NUL-terminated, and never copied elsewhere.
    ///
    /// - Throws: ``ThunderbirdProfileError/primaryPasswordWrong(path:)``.
    func unlock(with primaryPassword: SecretBytes) throws(ThunderbirdProfileError) {
        let terminated: SecretBytes
        do { terminated = try GuardedCopy.nulTerminated(primaryPassword) } catch {
            throw .keyDatabaseUnusable(path: profilePath, code: SEC_ERROR_NO_MEMORY.rawValue)
        }
        defer { terminated.wipe() }
        let status = terminated.withUnsafeBytes { bytes in
            PK11_CheckUserPassword(openSlot, bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        guard status == SECSuccess else {
            let code = NSSRuntime.lastError
            if code == SEC_ERROR_BAD_PASSWORD.rawValue { throw .primaryPasswordWrong(path: profilePath) }
            throw .keyDatabaseUnusable(path: profilePath, code: code)
        }
    }

    /// Gives a new database the empty password, as Thunderbird does for a new profile.
    func initialiseWithoutPassword() throws(ThunderbirdProfileError) {
        guard PK11_InitPin(openSlot, "", "") == SECSuccess else {
            throw .keyDatabaseUnusable(path: profilePath, code: NSSRuntime.lastError)
        }
    }

    /// The keys of `type` (`CKK_AES`, `CKK_DES3`), the one with `keyID` first; the caller
    /// frees each with `PK11_FreeSymKey`.
    func keys(ofType type: CK_KEY_TYPE, preferring keyID: [UInt8]) -> [OpaquePointer] {
        var matching: [OpaquePointer] = []
        var others: [OpaquePointer] = []
        var next = PK11_ListFixedKeysInSlot(openSlot, nil, nil)
        while let key = next {
            next = PK11_GetNextSymKey(key)
            guard PK11_GetSymKeyType(key) == type else {
                PK11_FreeSymKey(key)
                continue
            }
            if Self.identifier(of: key) == keyID { matching.append(key) } else { others.append(key) }
        }
        return matching + others
    }

    /// Whether `key` has the key ID `keyID`.
    func matches(_ key: OpaquePointer, _ keyID: [UInt8]) -> Bool { Self.identifier(of: key) == keyID }

    /// Makes the default SDR key (AES-256), as NSS's SDR does when a profile has none.
    func generateSDRKey() throws(ThunderbirdProfileError) -> OpaquePointer {
        var identifier = SDREnvelope.defaultKeyID
        let key = identifier.withUnsafeMutableBufferPointer { buffer -> OpaquePointer? in
            var item = SECItem(type: siBuffer, data: buffer.baseAddress, len: UInt32(buffer.count))
            return PK11_TokenKeyGen(openSlot, CK_MECHANISM_TYPE(CKM_AES_CBC), nil, 32, &item, PR_TRUE, nil)
        }
        guard let key else { throw .keyDatabaseUnusable(path: profilePath, code: NSSRuntime.lastError) }
        return key
    }

    /// `count` bytes from NSS's random number generator (an IV: not secret); `nil` when NSS failed.
    func random(count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { PK11_GenerateRandomOnSlot(openSlot, $0.baseAddress, Int32($0.count)) }
        return status == SECSuccess ? bytes : nil
    }

    /// Closes the slot. Idempotent.
    func close() {
        guard let slot else { return }
        self.slot = nil
        _ = SECMOD_CloseUserDB(slot)
        PK11_FreeSlot(slot)
    }

    private var openSlot: OpaquePointer {
        guard let slot else { preconditionFailure("the key database was used after close()") }
        return slot
    }

    private static func identifier(of key: OpaquePointer) -> [UInt8]? {
        var item = SECItem(type: siBuffer, data: nil, len: 0)
        guard PK11_ReadRawAttribute(PK11_TypeSymKey, UnsafeMutableRawPointer(key), CK_ATTRIBUTE_TYPE(CKA_ID), &item) == SECSuccess else {
            return nil
        }
        defer { SECITEM_FreeItem(&item, PR_FALSE) }
        guard let data = item.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(item.len)))
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
