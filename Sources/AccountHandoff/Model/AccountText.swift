/// The rules every account string must follow before a person sees it (Spec 3.7, T1-T7):
/// PRECIS FreeformClass (RFC 8264) with the Nickname profile's space rules (RFC 8266), applied
/// as validation, never as mapping, with the properties of Unicode 14.0.
enum AccountText {
    /// The account strings and their byte-length ranges (T1).
    enum Kind {
        case displayName, emailAddress, username, imapHost

        var field: HandoffError.Field {
            switch self {
            case .displayName: .displayName
            case .emailAddress: .emailAddress
            case .username: .username
            case .imapHost: .imapHost
            }
        }

        var byteLengths: ClosedRange<Int> {
            switch self {
            case .displayName: 0...AccountMetadata.maximumDisplayNameByteCount
            case .emailAddress, .username: 1...AccountMetadata.maximumAddressByteCount
            case .imapHost: 1...AccountMetadata.maximumHostByteCount
            }
        }
    }

    /// The longest run of consecutive combining marks (Mn, Me) in any field (T5).
    static let maximumMarkRun = 4
    /// The most display units a display name may take (T6).
    static let maximumDisplayUnits = 64
    /// The Unicode version whose assignments the rules use.
    static let unicodeVersion = (major: 14, minor: 0)

    /// Checks T1-T7 for `value` as `kind`. Every rule gives the same error, so their order
    /// within one field does not matter; the fields are checked in the order of Spec 3.4.
    ///
    /// - Throws: `.malformed(kind.field)` naming the field at the first broken rule.
    static func validate(_ value: String, as kind: Kind) throws(HandoffError) {
        let scalars = Array(value.unicodeScalars)
        guard kind.byteLengths.contains(value.utf8.count) else { throw .malformed(kind.field) }
        for (index, scalar) in scalars.enumerated() where !isPermitted(scalar) {
            guard isJoiner(scalar), joinerIsInContext(scalars, at: index) else { throw .malformed(kind.field) }
        }
        guard spacesAreValid(scalars, kind: kind) else { throw .malformed(kind.field) }
        guard longestMarkRun(scalars) <= maximumMarkRun else { throw .malformed(kind.field) }
        if kind == .displayName, displayUnits(scalars) > maximumDisplayUnits { throw .malformed(kind.field) }
        if kind == .imapHost, !isLetterDigitHyphenHostName(value) { throw .malformed(kind.field) }
    }

    // MARK: T2: characters PRECIS FreeformClass disallows

    /// Whether `scalar` is allowed anywhere (T2); the joiners are decided by T3.
    static func isPermitted(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        guard let age = properties.age, (age.major, age.minor) <= unicodeVersion else { return false }
        switch properties.generalCategory {
        case .control, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .format:
            return false
        case .spaceSeparator:
            return scalar == " "
        default:
            break
        }
        if properties.isDefaultIgnorableCodePoint || properties.isNoncharacterCodePoint { return false }
        return !isConjoiningHangulJamo(scalar)
    }

    /// Hangul_Syllable_Type L, V or T (PRECIS OldHangulJamo).
    static func isConjoiningHangulJamo(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0xA960...0xA97C, 0xD7B0...0xD7C6, 0xD7CB...0xD7FB: true
        default: false
        }
    }

    // MARK: T3: joiners in their CONTEXTJ contexts (RFC 5892 A.1, A.2)

    static func isJoiner(_ scalar: Unicode.Scalar) -> Bool { scalar.value == 0x200C || scalar.value == 0x200D }

    static func joinerIsInContext(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        if index > 0, scalars[index - 1].properties.canonicalCombiningClass.rawValue == 9 { return true }
        guard scalars[index].value == 0x200C else { return false }
        let before = scalars[..<index].reversed().first { JoiningType.of($0) != .transparent }
        let after = scalars[(index + 1)...].first { JoiningType.of($0) != .transparent }
        guard let before, let after else { return false }
        return [.left, .dual].contains(JoiningType.of(before)) && [.right, .dual].contains(JoiningType.of(after))
    }

    // MARK: T4-T7

    static func spacesAreValid(_ scalars: [Unicode.Scalar], kind: Kind) -> Bool {
        switch kind {
        case .emailAddress, .imapHost:
            return !scalars.contains(" ")
        case .displayName, .username:
            if scalars.first == " " || scalars.last == " " { return false }
            return !zip(scalars, scalars.dropFirst()).contains { $0 == " " && $1 == " " }
        }
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: false
        }
    }

    static func longestMarkRun(_ scalars: [Unicode.Scalar]) -> Int {
        var longest = 0
        var current = 0
        for scalar in scalars {
            current = isMark(scalar) ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    static func displayUnits(_ scalars: [Unicode.Scalar]) -> Int {
        scalars.count { !isMark($0) && !isJoiner($0) }
    }

    static func isLetterDigitHyphenHostName(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count), bytes.first != 0x2D, bytes.last != 0x2D else { return false }
            return bytes.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
            }
        }
    }
}
