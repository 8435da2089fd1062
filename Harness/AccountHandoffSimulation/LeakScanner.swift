import AccountHandoff
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches everything a session prints, throws or sends for the password and for key
/// material: raw bytes in frames, and hex or decimal renderings in text (descriptions,
/// `dump` output, error messages).
///
/// Test support only. It learns key material by reading sessions' guarded buffers through the
/// package's test hooks while they are live, which only a test may do.
///
/// Learning is cheap enough to run after every step of a fuzz input: a secret's bytes never
/// change between its creation and its wipe, so each buffer is read once, recognised by its
/// identity afterwards (the scanner keeps every buffer it has seen alive, so an identity is
/// never reused for a new buffer), and only short prefixes are kept.
public final class LeakScanner {
    /// Bytes of a secret searched for in frames.
    static let rawPrefixLength = 16
    /// Bytes of a secret searched for as hex in text (24 hex digits).
    static let hexPrefixLength = 12
    /// Bytes of a secret searched for as a run of decimal numbers in text.
    static let decimalPrefixLength = 8

    /// The first 16 bytes of a secret as two words: cheap to hash and compare.
    struct Prefix: Hashable {
        let high: UInt64
        let low: UInt64

        init(_ buffer: UnsafeRawBufferPointer) {
            high = buffer.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            low = buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        }

        /// Whether all 16 bytes are zero: a buffer not filled yet (or wiped).
        var isZero: Bool { high == 0 && low == 0 }

        /// The 16 bytes, in their order in the secret.
        var bytes: [UInt8] {
            withUnsafeBytes(of: high) { Array($0) } + withUnsafeBytes(of: low) { Array($0) }
        }
    }

    private let passwordBytes: [UInt8]
    private var learnedPrefixes: Set<Prefix> = []
    private var rawPrefixes: [[UInt8]] = []
    private var hexPrefixes: [[UInt8]] = []
    /// Texts that passed against the current key material (cleared when new material is learned).
    private var cleanTexts: Set<String> = []
    private var decimalPrefixes: [[Int]] = []
    /// How many texts and byte strings were scanned.
    public private(set) var scannedCount = 0
    /// While `true`, checks pass without scanning (set while replaying checked prefixes).
    public var paused = false

    /// Set by the fuzz executables (one input at a time, on one thread): harnesses then share
    /// one scanner per password for the whole process (``forInput(password:)``), so each
    /// distinct secret's forms are learned once per process instead of once per input. Tests,
    /// which run harnesses on several threads at once, leave it off.
    nonisolated(unsafe) public static var sharedPerProcess = false
    nonisolated(unsafe) private static var shared: [String: LeakScanner] = [:]
    /// Distinct secrets a shared scanner keeps before it starts over (at the start of an input).
    static let sharedCapacity = 512

    /// The scanner for one input: a new one, or in the fuzz executables the process's scanner
    /// for `password` (what it learned before stays; the buffers of earlier inputs are let go).
    public static func forInput(password: String) -> LeakScanner {
        guard sharedPerProcess else { return LeakScanner(password: password) }
        guard let scanner = shared[password], scanner.keyMaterialCount < sharedCapacity else {
            let scanner = LeakScanner(password: password)
            shared[password] = scanner
            return scanner
        }
        scanner.paused = false
        return scanner
    }

    /// Scans for `password` (and for whatever key material ``learn(_:)`` adds).
    public init(password: String) {
        passwordBytes = Array(password.utf8)
        // Room for the secrets of a few sessions, so learning never regrows a table.
        learnedPrefixes.reserveCapacity(48)
        rawPrefixes.reserveCapacity(48)
        hexPrefixes.reserveCapacity(96)
        decimalPrefixes.reserveCapacity(48)
    }

    /// Remembers the contents of `secrets` that are new to the scanner as key material (skipping
    /// wiped ones and ones shorter than 16 bytes). A session's kept secrets are filled when they
    /// are made, so each is read once, as it is learned.
    package func learn(_ secrets: [SessionSecret]) {
        for secret in secrets where secret.count >= Self.rawPrefixLength && !secret.isWiped {
            let prefix = secret.withUnsafeBytes { Prefix($0) }
            guard !prefix.isZero, learnedPrefixes.insert(prefix).inserted else { continue }
            let forms = KeyMaterialForms.shared.forms(of: prefix)
            rawPrefixes.append(forms.raw)
            hexPrefixes += forms.hex
            decimalPrefixes.append(forms.decimal)
            cleanTexts.removeAll(keepingCapacity: true)
        }
    }

    /// How many distinct secrets were learned.
    public var keyMaterialCount: Int { rawPrefixes.count }

    /// Fails when `text` contains the password, or key material in hex (either case) or as a run
    /// of decimal numbers. A text that already passed against the same key material is not
    /// scanned again (error descriptions repeat a lot).
    public func check(text: String, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !paused else { return }
        scannedCount += 1
        if cleanTexts.contains(text) { return }
        var text = text
        let leak: String? = text.withUTF8 { utf8 in
            if Self.contains(utf8, passwordBytes) { return "password" }
            for hex in hexPrefixes where Self.contains(utf8, hex) { return "key material (hex)" }
            guard !decimalPrefixes.isEmpty else { return nil }
            let numbers = Self.decimalNumbers(in: utf8)
            guard numbers.count >= Self.decimalPrefixLength else { return nil }
            for secret in decimalPrefixes where Self.containsElements(numbers, secret) { return "key material (decimal bytes)" }
            return nil
        }
        if let leak { throw InvariantViolation("\(leak) in \(context())") }
        if cleanTexts.count < 4096 { cleanTexts.insert(text) }
    }

    /// Fails when `bytes` contain the password or any key material verbatim.
    public func check(bytes: [UInt8], _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !paused else { return }
        scannedCount += 1
        let leak: String? = bytes.withUnsafeBufferPointer { buffer in
            if Self.contains(buffer, passwordBytes) { return "password bytes" }
            for prefix in rawPrefixes where Self.contains(buffer, prefix) { return "key material bytes" }
            return nil
        }
        if let leak { throw InvariantViolation("\(leak) in \(context())") }
    }

    /// Fails when the description of `error` contains the password or key material. The
    /// description (a reflection walk, slow under the sanitizers) is rendered once per distinct
    /// error value in the process and scanned each time.
    public func check(error: HandoffError, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !paused else { return }
        try check(text: ErrorDescriptions.shared.describe(error), context())
    }

    /// Checks `String(describing:)`, `String(reflecting:)` and `dump` of `value`.
    public func check(renderingsOf value: Any, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !paused else { return }
        var dumped = ""
        dump(value, to: &dumped)
        try check(text: String(describing: value), "description of \(context())")
        try check(text: String(reflecting: value), "debug description of \(context())")
        try check(text: dumped, "dump of \(context())")
    }

    /// Whether `needle` occurs in `haystack` (`memchr` for its first byte, then `memcmp`).
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        return needle.withUnsafeBufferPointer { needleBuffer in
            let first = Int32(needleBuffer[0])
            let end = base + (haystack.count - needle.count + 1)
            var start = base
            while start < end {
                guard let hit = memchr(start, first, end - start) else { return false }
                let candidate = hit.assumingMemoryBound(to: UInt8.self)
                if memcmp(candidate, needleBuffer.baseAddress!, needle.count) == 0 { return true }
                start = UnsafePointer(candidate + 1)
            }
            return false
        }
    }

    static func containsElements<Element: Equatable>(_ haystack: [Element], _ needle: [Element]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// Every maximal run of ASCII digits read as a number (capped, so long digit runs stay distinct from bytes).
    static func decimalNumbers(in utf8: UnsafeBufferPointer<UInt8>) -> [Int] {
        var numbers: [Int] = []
        var current = -1
        for unit in utf8 {
            if unit >= 0x30 && unit <= 0x39 {
                current = current < 0 ? Int(unit - 0x30) : min(current * 10 + Int(unit - 0x30), 1_000_000)
            } else if current >= 0 {
                numbers.append(current)
                current = -1
            }
        }
        if current >= 0 { numbers.append(current) }
        return numbers
    }
}

/// The renderings searched for in text of each distinct secret prefix, built once per process
/// (a fuzz target meets the same deterministic secrets in every input).
final class KeyMaterialForms: @unchecked Sendable {
    // Safety of @unchecked Sendable: `cache` is only touched under `lock`.
    struct Forms {
        /// The first bytes, searched for in frames.
        let raw: [UInt8]
        /// Lowercase and uppercase hex of the first bytes.
        let hex: [[UInt8]]
        /// The first bytes as numbers, as a byte array's description prints them.
        let decimal: [Int]
    }

    static let shared = KeyMaterialForms()
    private let lock = NSLock()
    private var cache: [LeakScanner.Prefix: Forms] = [:]

    /// The forms of a secret whose first 16 bytes are `prefix`.
    func forms(of prefix: LeakScanner.Prefix) -> Forms {
        if let forms = lock.withLock({ cache[prefix] }) { return forms }
        let raw = prefix.bytes
        let hex = Hex.encode(Array(raw.prefix(LeakScanner.hexPrefixLength)))
        let forms = Forms(raw: raw, hex: [Array(hex.utf8), Array(hex.uppercased().utf8)],
                          decimal: raw.prefix(LeakScanner.decimalPrefixLength).map(Int.init))
        lock.withLock { if cache.count < 4096 { cache[prefix] = forms } }
        return forms
    }
}

/// `String(describing:)` of each distinct ``HandoffError`` value, rendered once per process.
final class ErrorDescriptions: @unchecked Sendable {
    // Safety of @unchecked Sendable: `texts` is only touched under `lock`.
    static let shared = ErrorDescriptions()
    private let lock = NSLock()
    private var texts: [HandoffError: String] = [:]

    func describe(_ error: HandoffError) -> String {
        if let text = lock.withLock({ texts[error] }) { return text }
        let text = String(describing: error)
        lock.withLock { texts[error] = text }
        return text
    }
}
