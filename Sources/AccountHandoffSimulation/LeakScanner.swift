@_spi(Vectors) import AccountHandoff

/// Searches everything a session prints, throws or sends for the password and for key
/// material: raw bytes in frames, and hex or decimal renderings in text (descriptions,
/// `dump` output, error messages).
///
/// Test support only. It learns key material by reading sessions' guarded buffers through
/// SPI while they are live, which only a test may do.
public final class LeakScanner {
    private let passwordBytes: [UInt8]
    private var keyMaterial: [[UInt8]] = []
    private var keyMaterialHex: [[UInt8]] = []
    private var seen: Set<[UInt8]> = []
    /// How many texts and byte strings were scanned.
    public private(set) var scannedCount = 0
    /// While `true`, checks pass without scanning (set while replaying checked prefixes).
    public var paused = false

    /// Scans for `password` (and for whatever key material ``learn(_:)`` adds).
    public init(password: String) {
        passwordBytes = Array(password.utf8)
    }

    /// Remembers the current contents of `secrets` (skipping wiped or short ones) as key material.
    public func learn(_ secrets: [SecretBytes]) {
        for secret in secrets where secret.count >= 16 && !secret.isAllZero {
            let bytes = secret.revealedBytes()
            guard seen.insert(bytes).inserted else { continue }
            keyMaterial.append(bytes)
            keyMaterialHex.append(Array(Hex.encode(Array(bytes.prefix(12))).utf8))
        }
    }

    /// How many distinct secrets were learned.
    public var keyMaterialCount: Int { keyMaterial.count }

    /// Fails when `text` contains the password, or key material in hex or as a run of decimal numbers.
    public func check(text: String, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !paused else { return }
        scannedCount += 1
        let utf8 = Array(text.utf8)
        if Self.contains(utf8, passwordBytes) { throw InvariantViolation("password in \(context())") }
        let lowered = utf8.map { $0 >= 0x41 && $0 <= 0x5a ? $0 | 0x20 : $0 }
        for hex in keyMaterialHex where Self.contains(lowered, hex) {
            throw InvariantViolation("key material (hex) in \(context())")
        }
        let numbers = Self.decimalNumbers(in: utf8)
        guard numbers.count >= 8 else { return }
        for secret in keyMaterial where Self.contains(numbers, Array(secret.prefix(8)).map(Int.init)) {
            throw InvariantViolation("key material (decimal bytes) in \(context())")
        }
    }

    /// Fails when `bytes` contain the password or any key material verbatim.
    public func check(bytes: [UInt8], _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !paused else { return }
        scannedCount += 1
        if Self.contains(bytes, passwordBytes) { throw InvariantViolation("password bytes in \(context())") }
        for secret in keyMaterial where Self.contains(bytes, Array(secret.prefix(16))) {
            throw InvariantViolation("key material bytes in \(context())")
        }
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

    static func contains<Element: Equatable>(_ haystack: [Element], _ needle: [Element]) -> Bool {
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
    static func decimalNumbers(in utf8: [UInt8]) -> [Int] {
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
