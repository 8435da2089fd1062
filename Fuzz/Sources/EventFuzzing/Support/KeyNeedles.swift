import AccountHandoff
import AccountHandoffSimulation
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a world searches its outputs for: the password, and the first 16 bytes of every secret
/// its sessions held (raw in frames; lowercase and uppercase hex of the first 12 in text).
///
/// Secrets are read only when a session may hold new ones (after a change of phase), each
/// buffer once per input; the hex forms of each distinct secret are built once per process.
struct KeyNeedles {
    private let password: [UInt8]
    private var raw: [[UInt8]] = []
    private var hex: [[UInt8]] = []
    private var seen: Set<ObjectIdentifier> = []
    /// Buffers read, kept alive so that an identity is never reused within the input.
    private var kept: [SecretBytes] = []

    init(password: [UInt8]) { self.password = password }

    /// Learns the contents of `secrets` not read before (wiped and short buffers are skipped;
    /// a buffer whose first 16 bytes are still zero is looked at again next time).
    mutating func learn(_ secrets: [SecretBytes]) {
        for secret in secrets where !seen.contains(ObjectIdentifier(secret)) {
            guard secret.count >= 16, let prefix = secret.withUnsafeBytesUnlessWiped({ Array($0.prefix(16)) }) else {
                seen.insert(ObjectIdentifier(secret))
                kept.append(secret)
                continue
            }
            guard prefix.contains(where: { $0 != 0 }) else { continue }
            seen.insert(ObjectIdentifier(secret))
            kept.append(secret)
            guard !raw.contains(prefix) else { continue }
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
