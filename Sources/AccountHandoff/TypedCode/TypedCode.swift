/// The short code the receiving person types in the typed mode (Spec 12.1): 11 decimal digits
/// `nameplate | secret | check`, shown grouped as `NNN SSSS SSSC`.
///
/// - `nameplate` (3 digits, public) finds the sending device at the rendezvous (Spec 12.8);
/// - `secret` (7 digits) is the CPace password: an online guess succeeds with probability 10^-7;
/// - `check` is the Damm check digit over the ten digits before it (Spec 12.2), so a
///   typo is refused before anything is sent (``HandoffError/typedCodeCheckFailed``).
///
/// The digits live in guarded memory (``SecretBytes``) and never appear in ``description``.
/// The sending device draws a code from its random source; the receiving device reads what its
/// person typed (``init(entry:)``).
///
/// - Warning: ``digits``, ``grouped`` and ``spoken`` are ordinary strings that hold the secret
///   so that a screen can show it; show them, never log or store them, and call ``wipe()``
///   when the code is retired.
public struct TypedCode: Sendable {
    /// Digits in a code.
    public static let digitCount = 11
    /// Digits of the nameplate.
    public static let nameplateDigitCount = 3
    /// Digits of the secret.
    public static let secretDigitCount = 7
    /// The sizes of the groups of ``grouped`` and ``spoken``: `NNN SSSS SSSC`.
    public static let groupSizes = [3, 4, 4]

    /// The public part that finds the sending device.
    public let nameplate: Nameplate

    /// The 11 ASCII digits, in guarded memory.
    private let storage: SecretBytes

    /// A code whose 11 ASCII digits in `storage` are checked already; takes ownership of it.
    init(checkedDigits storage: SecretBytes) {
        precondition(storage.count == Self.digitCount, "a typed code has 11 digits")
        self.storage = storage
        nameplate = storage.withUnsafeBytes { digits in
            Nameplate(value: digits.prefix(Self.nameplateDigitCount).reduce(UInt16(0)) { $0 * 10 + UInt16($1 - 0x30) })!
        }
    }

    /// The 11 digits, e.g. `"42781509366"`.
    ///
    /// - Precondition: the code has not been wiped.
    public var digits: String {
        storage.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The shown form: groups of 3, 4 and 4 digits apart by one space, `"427 8150 9366"`.
    ///
    /// - Precondition: the code has not been wiped.
    public var grouped: String {
        Self.groups(of: Array(digits)).map { String($0) }.joined(separator: " ")
    }

    /// For screen readers and reading aloud, in English:
    /// `"four two seven, eight one five zero, nine three six six"`. Apps localise it with
    /// ``ShortCodeFormatter``.
    ///
    /// - Precondition: the code has not been wiped.
    public var spoken: String { ShortCodeFormatter.english.accessibilityLabel(for: self) }

    /// The check digit (the last digit), public like the nameplate.
    ///
    /// - Precondition: the code has not been wiped.
    public var checkDigit: Int {
        storage.withUnsafeBytes { Int($0[Self.digitCount - 1] - 0x30) }
    }

    /// Whether `other` is the same code, compared in constant time.
    ///
    /// - Precondition: neither code has been wiped.
    public func matches(_ other: TypedCode) -> Bool {
        storage.constantTimeEquals(other.storage)
    }

    /// `PRS` of the CPace run (Spec 12.7): the 7 ASCII digits of the secret, copied into new
    /// guarded memory that the caller wipes.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    package func password() throws(HandoffError) -> SecretBytes {
        try storage.withUnsafeBytes { (digits) throws(HandoffError) in
            try SecretBytes(copying: UnsafeRawBufferPointer(
                rebasing: digits[Self.nameplateDigitCount..<(Self.nameplateDigitCount + Self.secretDigitCount)]))
        }
    }

    /// The code's claim in a receiver registry (Spec 6.3): the first 16 bytes of
    /// `SHA-256("AH4 typed code claim" | digits)`, so a registry never holds the digits.
    package var claimID: TransferID {
        storage.withUnsafeBytes { digits in
            Self.claimLabel.withUnsafeBytes { label in SHA256.digest(label, digits).withUnsafeBytes { TransferID(copying: $0) } }
        }
    }

    /// A copy with its own guarded memory, for an app to show and wipe on its own (the session
    /// wipes its code when it retires it).
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    public func copy() throws(HandoffError) -> TypedCode {
        TypedCode(checkedDigits: try storage.withUnsafeBytes { (digits) throws(HandoffError) in try SecretBytes(copying: digits) })
    }

    /// The label of ``claimID``.
    package static let claimLabel = Array("AH4 typed code claim".utf8)

    /// Overwrites the digits with zeros; idempotent. Reading the digits afterwards traps.
    public func wipe() { storage.wipe() }

    /// Whether ``wipe()`` has run.
    public var isWiped: Bool { storage.isWiped }

    /// `elements` cut into the groups of ``groupSizes``.
    static func groups<Element>(of elements: [Element]) -> [ArraySlice<Element>] {
        precondition(elements.count == digitCount, "a typed code has 11 digits")
        var start = 0
        return groupSizes.map { size in
            defer { start += size }
            return elements[start..<(start + size)]
        }
    }
}

extension TypedCode {
    /// The three public digits that name the sending device at the rendezvous (Spec 12.1):
    /// `000`...`999`.
    public struct Nameplate: Hashable, Sendable, CustomStringConvertible {
        /// The nameplate as a number below 1000.
        public let value: UInt16

        /// The nameplate of `value`; `nil` unless it is below 1000.
        public init?(value: UInt16) {
            guard value < 1000 else { return nil }
            self.value = value
        }

        /// The nameplate written as exactly three ASCII digits (leading zeros included); `nil`
        /// for any other text.
        public init?(digits: String) {
            let bytes = Array(digits.utf8)
            guard bytes.count == TypedCode.nameplateDigitCount, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            self.init(value: bytes.reduce(UInt16(0)) { $0 * 10 + UInt16($1 - 0x30) })
        }

        /// Three ASCII digits with leading zeros, e.g. `"042"`.
        public var digits: String {
            let raw = String(value)
            return String(repeating: "0", count: TypedCode.nameplateDigitCount - raw.count) + raw
        }

        /// The three digits.
        public var description: String { digits }

        /// The ASCII bytes of ``digits``: how the nameplate enters `CI` and the relay token.
        package var bytes: [UInt8] { Array(digits.utf8) }
    }
}

extension TypedCode: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The nameplate only, e.g. `"TypedCode(427, secret redacted)"`.
    public var description: String { "TypedCode(\(nameplate), secret redacted)" }
    /// Same as ``description``.
    public var debugDescription: String { description }
    /// Shows only the nameplate, so `dump` and debuggers show nothing secret.
    public var customMirror: Mirror { Mirror(self, children: ["nameplate": nameplate], displayStyle: .struct) }
}
