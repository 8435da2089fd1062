import AccountHandoff
import CSodium
import Foundation

/// One line of Dovecot's `passwd-file`, with the password stored as `{SSHA256}` (salted
/// SHA-256), so the password itself is never written to disk.
enum PasswordFile {
    static func line(user: String, password: SecretBytes, uid: UInt32, gid: UInt32, home: String) -> String {
        var salt = [UInt8](repeating: 0, count: 8)
        randombytes_buf(&salt, salt.count)
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        var state = crypto_hash_sha256_state()
        crypto_hash_sha256_init(&state)
        password.withUnsafeBytes { bytes in
            _ = crypto_hash_sha256_update(&state, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
        }
        crypto_hash_sha256_update(&state, salt, UInt64(salt.count))
        crypto_hash_sha256_final(&state, &digest)
        sodium_memzero(&state, MemoryLayout<crypto_hash_sha256_state>.size)
        let encoded = Data(digest + salt).base64EncodedString()
        // nodelay: no artificial delay after a failed login (the tests try wrong passwords).
        return "\(user):{SSHA256}\(encoded):\(uid):\(gid)::\(home)::nodelay=y\n"
    }

    /// Whether `user` is safe in the colon-separated file.
    static func isValidUser(_ user: String) -> Bool {
        !user.isEmpty && user.utf8.count <= 64 && user.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", "@", "+": true
            default: false
            }
        }
    }
}
