/// The rules every account string must follow before a person sees it (Spec 3.7, T1-T7):
/// PRECIS FreeformClass (RFC 8264) with the Nickname profile's space rules (RFC 8266), applied
/// as validation, never as mapping, with the properties of Unicode 14.0.
///
/// The properties come from tables generated from the Unicode 14.0 data
/// (``AccountTextProperties``, ``JoiningType``; Scripts/generate-account-text-tables.py), not from
/// `Unicode.Scalar.Properties`: the runtime's data follows the OS's Unicode version, which
/// assigns new code points and changes values of old ones (U+1171E is Mn in 14.0, Mc in 16.0).
package enum AccountText {
    /// The account strings and their byte-length ranges (T1).
    package enum Kind {
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

    /// Checks T1-T7 for `value` as `kind`. Every rule gives the same error, so their order
    /// within one field does not matter; the fields are checked in the order of Spec 3.4.
    /// The code points are walked in place, never collected, so a check allocates nothing.
    ///
    /// - Throws: `.malformed(kind.field)` naming the field at the first broken rule.
    package static func validate(_ value: String, as kind: Kind) throws(HandoffError) {
        guard kind.byteLengths.contains(value.utf8.count) else { throw .malformed(kind.field) }
        let scalars = value.unicodeScalars
        let valid = value.utf8.withContiguousStorageIfAvailable { asciiCodePointsAreValid($0, kind: kind) } ?? nil
        guard valid ?? codePointsAreValid(scalars, kind: kind) else { throw .malformed(kind.field) }
        let spaces = value.utf8.withContiguousStorageIfAvailable { spacesAreValid($0, kind: kind) }
        guard spaces ?? spacesAreValid(value.utf8, kind: kind) else { throw .malformed(kind.field) }
        if kind == .imapHost, !isLetterDigitHyphenHostName(value) { throw .malformed(kind.field) }
    }

    /// T2 (no refused code point), T3 (joiners in context), T5 (mark runs) and T6 (display
    /// units of a display name), in one pass.
    static func codePointsAreValid(_ scalars: String.UnicodeScalarView, kind: Kind) -> Bool {
        var previous = AccountTextProperties()  // of the code point before; none at the start
        var markRun = 0
        var displayUnits = 0
        for index in scalars.indices {
            let properties = AccountTextProperties.of(scalars[index])
            guard !properties.contains(.refused) else { return false }
            if properties.contains(.joiner), !joinerIsInContext(scalars, at: index, after: previous) { return false }
            markRun = properties.contains(.mark) ? markRun + 1 : 0
            guard markRun <= maximumMarkRun else { return false }
            // Display units are the code points other than marks and joiners (T6).
            if properties.isDisjoint(with: [.mark, .joiner]) { displayUnits += 1 }
            previous = properties
        }
        return kind != .displayName || displayUnits <= maximumDisplayUnits
    }

    /// ``codePointsAreValid(_:kind:)`` for a string of ASCII alone (every byte below 0x80), or
    /// `nil` for any other: there T2 refuses only the controls (U+0000-U+001F, U+007F), there
    /// are no joiners or marks (T3, T5), and each byte is one display unit (T6). Most account
    /// strings are ASCII, and the table walk was half the cost of checking an offer.
    static func asciiCodePointsAreValid(_ utf8: UnsafeBufferPointer<UInt8>, kind: Kind) -> Bool? {
        var controls = false
        for byte in utf8 {
            if byte >= 0x80 { return nil }
            controls = controls || byte < 0x20 || byte == 0x7F
        }
        return !controls && (kind != .displayName || utf8.count <= maximumDisplayUnits)
    }

    // MARK: T3: joiners in their CONTEXTJ contexts (RFC 5892 A.1, A.2)

    /// U+200D only right after a virama; U+200C right after a virama, or between a left- or
    /// dual-joining and a right- or dual-joining code point with only transparent ones between.
    /// `previous` holds the properties of the code point before `index` (none at the start).
    static func joinerIsInContext(_ scalars: String.UnicodeScalarView, at index: String.Index,
                                  after previous: AccountTextProperties) -> Bool {
        if previous.contains(.virama) { return true }
        guard scalars[index].value == 0x200C else { return false }
        let before = scalars[..<index].last { JoiningType.of($0) != .transparent }.map(JoiningType.of)
        let after = scalars[scalars.index(after: index)...].first { JoiningType.of($0) != .transparent }.map(JoiningType.of)
        return (before == .left || before == .dual) && (after == .right || after == .dual)
    }

    // MARK: T4, T7

    /// T4: no space in an address or a host name; in a display name or username, none at
    /// either end and never two in a row. Checked on the UTF-8 bytes: there the byte 0x20 is
    /// the space and never part of another code point.
    static func spacesAreValid(_ utf8: some Sequence<UInt8>, kind: Kind) -> Bool {
        let space: UInt8 = 0x20
        var previous: UInt8? = nil
        for byte in utf8 {
            if byte == space {
                switch kind {
                case .emailAddress, .imapHost: return false
                case .displayName, .username: if previous == nil || previous == space { return false }
                }
            }
            previous = byte
        }
        return previous != space
    }

    /// Dot-separated labels of 1 to 63 letters, digits and hyphens, none starting or ending
    /// with a hyphen (T7), checked byte by byte.
    static func isLetterDigitHyphenHostName(_ host: String) -> Bool {
        let dot: UInt8 = 0x2E, hyphen: UInt8 = 0x2D
        var labelLength = 0
        var previous = dot
        for byte in host.utf8 {
            if byte == dot {
                guard labelLength > 0, previous != hyphen else { return false }
                labelLength = 0
            } else {
                let isLetterOrDigit = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                guard isLetterOrDigit || (byte == hyphen && labelLength > 0) else { return false }
                labelLength += 1
                guard labelLength <= 63 else { return false }
            }
            previous = byte
        }
        return labelLength > 0 && previous != hyphen
    }
}
