#if canImport(CPAM) && canImport(Glibc)
import CPAM
import Foundation
import Glibc

/// What this device can tell, before its gate asks, about the login password a PAM service
/// checks (Spec 8.7): whom the gate authenticates, and whether that user's password can pass
/// at all. Root on most servers and containers, and system accounts such as `nobody`, have
/// none, and no answer then gets through a service that checks it.
///
/// Learned the way the gate itself goes: `pam_start` with the same service and user shows
/// which modules the service loads, and glibc's shadow database (`getspnam_r`, which
/// pam_unix reads) gives the user's entry. Only root can read that database; for another user
/// nothing is ruled out (``unusableEntry`` is `nil`), and nothing else is parsed.
public struct LoginPasswordCheck: Sendable, Hashable {
    /// How a person is told who the gate authenticates: "root" for user ID 0, the user name
    /// of the process's real user otherwise (PAM authenticates that user, whatever `$USER`
    /// says), or "user ID N" when the user database has no name for it.
    public let user: String

    /// Why no password can pass, when that is known: the service checks the system's password
    /// database (pam_unix) and the user's entry there matches no password. `nil` when
    /// nothing rules a password out: the entry holds a password hash or cannot be read here,
    /// the service checks something else (no pam_unix), or it lets root through without a
    /// question (pam_rootok).
    public let unusableEntry: UnusablePasswordEntry?

    /// A check's result; for tests and for apps that learned it otherwise.
    public init(user: String, unusableEntry: UnusablePasswordEntry?) {
        self.user = user
        self.unusableEntry = unusableEntry
    }
}

/// How a shadow-database entry (`/etc/shadow`) refuses every password.
public enum UnusablePasswordEntry: String, Sendable, Hashable {
    /// `*` (or starting with it): no password was ever set, as for root on most cloud images
    /// and containers, and for `nobody`.
    case noPassword = "*"
    /// `!` before the field: the password is locked (`passwd -l`, `usermod -L`).
    case locked = "!"
    /// An empty field: no password, which the gate refuses (`PAM_DISALLOW_NULL_AUTHTOK`).
    case empty = ""

    /// The entry's kind for a shadow password field (or its start); `nil` for a field that
    /// may hold a hash.
    static func kind(of field: String) -> UnusablePasswordEntry? {
        if field.isEmpty { return .empty }
        if field.hasPrefix("*") { return .noPassword }
        if field.hasPrefix("!") { return .locked }
        return nil
    }
}

extension PAMAuthenticator {
    /// Finds out, without asking anything, whom the gate authenticates and whether that user's
    /// login password can pass the configured service (see ``LoginPasswordCheck``). Call it
    /// before a transfer starts, so the person learns of a gate that cannot pass before they
    /// spend any time on the transfer. Nothing is logged as a failed attempt: no
    /// authentication is tried.
    ///
    /// - Returns: the check; its ``LoginPasswordCheck/unusableEntry`` is `nil` whenever a
    ///   password is not ruled out for certain.
    /// - Note: Call it while no other PAM transaction runs in the process (for example before
    ///   the transfer starts): the modules another one loaded would count as the service's.
    public func checkLoginPassword() async -> LoginPasswordCheck {
        let service = configuration.serviceName
        let userID = authenticatedUserID
        return await withCheckedContinuation { continuation in
            // getpwuid_r, pam_start and getspnam_r may block (NSS, module loading).
            let thread = Thread { continuation.resume(returning: LoginPasswordProbe.run(service: service, userID: userID)) }
            thread.name = "AccountHandoff PAM check"
            thread.start()
        }
    }
}

/// The check, on a thread of its own.
enum LoginPasswordProbe {
    static func run(service: String, userID: uid_t) -> LoginPasswordCheck {
        let spoken = UserAccount.spokenName(of: userID)
        guard let user = UserAccount.name(of: userID) else { return LoginPasswordCheck(user: spoken, unusableEntry: nil) }
        var conversation = pam_conv(conv: { _, _, _, _ in PAM_CONV_ERR }, appdata_ptr: nil)
        var handle: OpaquePointer?
        guard pam_start(service, user, &conversation, &handle) == PAM_SUCCESS, let handle else {
            return LoginPasswordCheck(user: spoken, unusableEntry: nil)  // the gate will say why
        }
        // Linux-PAM loads a service's modules in pam_start and unloads them in pam_end.
        let modules = LoadedModules.fileNames()
        pam_end(handle, PAM_SUCCESS)
        guard modules.contains("pam_unix.so"), !(userID == 0 && modules.contains("pam_rootok.so")) else {
            return LoginPasswordCheck(user: spoken, unusableEntry: nil)
        }
        return LoginPasswordCheck(user: spoken, unusableEntry: ShadowEntry.passwordFieldStart(of: user).flatMap(UnusablePasswordEntry.kind(of:)))
    }
}

/// The file names of the shared objects this process has mapped (`/proc/self/maps`).
enum LoadedModules {
    static func fileNames() -> Set<String> {
        // /proc reports a size of 0, so the file is read to its end rather than by its size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return [] }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return [] }
        let maps = String(decoding: data, as: UTF8.self)
        var names = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/") else { continue }
            names.insert(String(path.split(separator: "/").last ?? ""))
        }
        return names
    }
}

/// glibc's shadow database, as pam_unix reads it.
enum ShadowEntry {
    /// The first character of the password field of `user`'s entry ("" when the field is
    /// empty), which says whether it can hold a hash; `nil` when there is no entry or it
    /// cannot be read (only root may: `EACCES` otherwise).
    static func passwordFieldStart(of user: String) -> String? {
        ReentrantLookup.run { storage in
            var entry = spwd()
            var found: UnsafeMutablePointer<spwd>?
            let status = getspnam_r(user, &entry, storage.baseAddress!, storage.count, &found)
            guard status == 0, found != nil, let field = entry.sp_pwdp else { return (status, nil) }
            // Only whether it is empty or starts with '*' or '!' matters; the hash is not kept.
            return (status, field.pointee == 0 ? "" : String(UnicodeScalar(UInt8(bitPattern: field.pointee))))
        }
    }
}
#endif
