/// The rules every account string must follow before a person sees it (Spec 3.7, T1-T7):
/// PRECIS FreeformClass (RFC 8264) with the Nickname profile's space rules (RFC 8266), applied
/// as validation, never as mapping, with the properties of Unicode 14.0.
///
/// The properties come from tables generated from the Unicode 14.0 data
/// (``AccountTextProperties``, ``JoiningType``; Scripts/generate-account-text-tables.py), not from
/// `Unicode.Scalar.Properties`: the runtime's data follows the OS's Unicode version, which
/// assigns new code points and changes values of old ones (U+1171E is Mn in 14.0, Mc in 16.0).
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

    /// Checks T1-T7 for `value` as `kind`. Every rule gives the same error, so their order
    /// within one field does not matter; the fields are checked in the order of Spec 3.4.
    ///
    /// - Throws: `.malformed(kind.field)` naming the field at the first broken rule.
    static func validate(_ value: String, as kind: Kind) throws(HandoffError) {
        guard kind.byteLengths.contains(value.utf8.count) else { throw .malformed(kind.field) }
        let scalars = Array(value.unicodeScalars)
        let properties = scalars.map(AccountTextProperties.of)
        guard !properties.contains(where: { $0.contains(.refused) }) else { throw .malformed(kind.field) }
        for index in scalars.indices where properties[index].contains(.joiner) {
            guard joinerIsInContext(scalars, properties, at: index) else { throw .malformed(kind.field) }
        }
        guard spacesAreValid(scalars, kind: kind) else { throw .malformed(kind.field) }
        guard longestMarkRun(properties) <= maximumMarkRun else { throw .malformed(kind.field) }
        if kind == .displayName, displayUnits(properties) > maximumDisplayUnits { throw .malformed(kind.field) }
        if kind == .imapHost, !isLetterDigitHyphenHostName(value) { throw .malformed(kind.field) }
    }

    // MARK: T3: joiners in their CONTEXTJ contexts (RFC 5892 A.1, A.2)

    /// U+200D only right after a virama; U+200C right after a virama, or between a left- or
    /// dual-joining and a right- or dual-joining code point with only transparent ones between.
    static func joinerIsInContext(_ scalars: [Unicode.Scalar], _ properties: [AccountTextProperties],
                                  at index: Int) -> Bool {
        if index > 0, properties[index - 1].contains(.virama) { return true }
        guard scalars[index].value == 0x200C else { return false }
        let before = scalars[..<index].last { JoiningType.of($0) != .transparent }.map(JoiningType.of)
        let after = scalars[(index + 1)...].first { JoiningType.of($0) != .transparent }.map(JoiningType.of)
        return (before == .left || before == .dual) && (after == .right || after == .dual)
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

    static func longestMarkRun(_ properties: [AccountTextProperties]) -> Int {
        var longest = 0
        var current = 0
        for property in properties {
            current = property.contains(.mark) ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// Code points other than marks and joiners (T6).
    static func displayUnits(_ properties: [AccountTextProperties]) -> Int {
        properties.count { $0.isDisjoint(with: [.mark, .joiner]) }
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
