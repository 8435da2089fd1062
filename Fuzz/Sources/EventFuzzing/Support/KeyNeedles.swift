import AccountHandoff
import AccountHandoffSimulation
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a world searches its outputs for: the password, and the first 16 bytes of every secret
/// its sessions held (raw in frames; lowercase and uppercase hex of the first 12 in text).
///
/// Secrets are read only when a session may hold new ones (after a change of phase); the hex
/// forms of each distinct secret are built once per process.
struct KeyNeedles {
    private let password: [UInt8]
    private var raw: [[UInt8]] = []
    private var hex: [[UInt8]] = []

    init(password: [UInt8]) { self.password = password }

    /// Learns the contents of a session's kept `secrets` (wiped and short ones are skipped;
    /// a session's secrets are filled when they are made).
    mutating func learn(_ secrets: [SessionSecret]) {
        for secret in secrets where secret.count >= 16 && !secret.isWiped { learn(key: secret.revealedBytes()) }
    }

    /// Learns one secret's bytes (an app's, such as the transport's admission key).
    mutating func learn(key bytes: [UInt8]) {
        let prefix = Array(bytes.prefix(16))
        if prefix.count == 16, prefix.contains(where: { $0 != 0 }), !raw.contains(prefix) {
            raw.append(prefix)
            hex += HexForms.shared.forms(of: prefix)
        }
    }

    /// Fails when `bytes` hold the password or a secret's first 16 bytes.
    func check(bytes: [UInt8], _ context: @autoclosure () -> String) throws(InvariantViolation) {
        if Self.contains(bytes, password) { throw InvariantViolation("the password in \(context())") }
        for needle in raw where Self.contains(bytes, needle) { throw InvariantViolation("key material in \(context())") }
    }

    /// Fails when `text` holds the password or a secret in hex.
    func check(text: String, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        let utf8 = Array(text.utf8)
        if Self.contains(utf8, password) { throw InvariantViolation("the password in \(context())") }
        for needle in hex where Self.contains(utf8, needle) { throw InvariantViolation("key material (hex) in \(context())") }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let base = hay.baseAddress!
                let end = base + (hay.count - pin.count + 1)
                var start = base
                while start < end {
                    guard let hit = memchr(start, Int32(pin[0]), end - start) else { return false }
                    let candidate = hit.assumingMemoryBound(to: UInt8.self)
                    if memcmp(candidate, pin.baseAddress!, pin.count) == 0 { return true }
                    start = UnsafePointer(candidate + 1)
                }
                return false
            }
        }
    }
}

/// The hex renderings of each distinct secret prefix, built once per process.
final class HexForms: @unchecked Sendable {
    // Safety of @unchecked Sendable: `cache` is only touched under `lock`.
    static let shared = HexForms()
    private let lock = NSLock()
    private var cache: [[UInt8]: [[UInt8]]] = [:]

    func forms(of prefix: [UInt8]) -> [[UInt8]] {
        if let forms = lock.withLock({ cache[prefix] }) { return forms }
        let lower = prefix.prefix(12).map { String(format: "%02x", $0) }.joined()
        let forms = [Array(lower.utf8), Array(lower.uppercased().utf8)]
        lock.withLock { if cache.count < 4096 { cache[prefix] = forms } }
        return forms
    }
}
