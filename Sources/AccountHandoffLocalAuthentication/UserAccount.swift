#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The name of a user ID, from the system's user database (`getpwuid_r`, which may ask NSS
/// services such as LDAP, so call it off the Swift concurrency threads: on the PAM thread, or
/// before any task runs).
package enum UserAccount {
    /// The user name of `userID`; `nil` when the database has no entry for it (or cannot be
    /// read).
    package static func name(of userID: uid_t) -> String? {
        ReentrantLookup.run { storage in
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(userID, &entry, storage.baseAddress!, storage.count, &found)
            guard status == 0, found != nil, let name = entry.pw_name else { return (status, nil) }
            return (status, String(cString: name))
        }
    }

    /// How a person is told who `userID` is: "root" for user ID 0 (whatever its entry is
    /// called), the user name otherwise, or "user ID N" when the database has none.
    package static func spokenName(of userID: uid_t) -> String {
        guard userID != 0 else { return "root" }
        return name(of: userID) ?? "user ID \(userID)"
    }
}

/// The buffer a reentrant libc lookup (`getpwuid_r`, `getspnam_r`) fills, grown while the
/// lookup says it is too small (`ERANGE`), and wiped afterwards (a shadow entry holds a hash).
enum ReentrantLookup {
    /// What `lookup` found in the buffer (read inside it: the entry's strings point into it);
    /// `nil` when it found nothing or the buffer would pass 1 MiB.
    static func run<Found>(_ lookup: (UnsafeMutableBufferPointer<CChar>) -> (status: Int32, found: Found?)) -> Found? {
        let suggested = sysconf(Int32(_SC_GETPW_R_SIZE_MAX))
        var capacity = suggested > 0 ? suggested : 1024
        while capacity <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let (status, found) = buffer.withUnsafeMutableBufferPointer { lookup($0) }
            buffer.withUnsafeMutableBytes { bytes in
                guard let start = bytes.baseAddress else { return }
                #if canImport(Glibc)
                explicit_bzero(start, bytes.count)
                #else
                _ = memset_s(start, bytes.count, 0, bytes.count)
                #endif
            }
            guard status == ERANGE else { return found }
            capacity *= 2
        }
        return nil
    }
}
