import AccountHandoff

/// Shows an account so that no field can pass for one of the program's own lines: every line
/// of the block starts with the same frame `  │ `, each field follows a fixed label, and a
/// value too wide for the terminal continues on lines that start with the frame and `┊`. The
/// library already refused control, format, bidirectional and invisible characters, line
/// separators and over-long names (Spec 3.7), so what is shown is what was sent.
package enum OfferDisplay {
    /// The frame every line of an account block starts with.
    static let frame = "  │ "
    /// Marks a line that continues the value above it.
    static let continuation = "┊ "
    private static let labelWidth = 15

    /// The account's lines.
    package static func lines(_ account: AccountMetadata, width: Int = terminalWidth()) -> [String] {
        let valueWidth = max(20, width - frame.count - labelWidth - 2)
        return fields(account).flatMap { label, value in
            let chunks = wrap(value, columns: valueWidth)
            let head = frame + label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + chunks[0]
            let indent = frame + String(repeating: " ", count: labelWidth) + continuation
            return [head] + chunks.dropFirst().map { indent + $0 }
        }
    }

    /// The account's fields as every account block names and writes them, in order: the offer,
    /// the account sent, the stored accounts and the comparison with a stored one.
    static func fields(_ account: AccountMetadata) -> [(label: String, value: String)] {
        let security = account.imapSecurity == .tls ? "TLS" : "STARTTLS"
        return [
            (sentenceCatalog.sentence("offer.label.displayName", in: .cli),
             account.displayName.isEmpty ? sentenceCatalog.sentence("offer.none", in: .cli) : account.displayName),
            (sentenceCatalog.sentence("offer.label.emailAddress", in: .cli), account.emailAddress),
            (sentenceCatalog.sentence("offer.label.userName", in: .cli), account.username),
            (sentenceCatalog.sentence("offer.label.mailServer", in: .cli), "\(account.imapHost):\(account.imapPort) (\(security))"),
            (sentenceCatalog.sentence("offer.label.linkID", in: .cli), account.linkID.description),
        ]
    }

    /// A stored account next to the offered one, field by field with the labels and values of
    /// ``lines(_:width:)``, framed like it: a `≠` marks the fields that differ.
    static func comparison(offered: AccountMetadata, stored: AccountMetadata, width: Int = terminalWidth()) -> [String] {
        let valueWidth = max(16, (width - frame.count - labelWidth - 6) / 2)
        let offeredColumn = sentenceCatalog.sentence("offer.column.offered", in: .cli)
        let storedColumn = sentenceCatalog.sentence("offer.column.stored", in: .cli)
        return zip(fields(offered), fields(stored)).flatMap { offeredField, storedField -> [String] in
            let offered = wrap(offeredField.value, columns: valueWidth)
            let existing = wrap(storedField.value, columns: valueWidth)
            let differs = offeredField.value != storedField.value
            return (0..<max(offered.count, existing.count)).map { index in
                let label = index == 0 ? offeredField.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
                                       : String(repeating: " ", count: labelWidth)
                let left = index < offered.count ? offered[index] : ""
                let right = index < existing.count ? existing[index] : ""
                let mark = index == 0 ? (differs ? "≠ " : "  ") : continuation
                return frame + label + "  " + offeredColumn + left + " " + mark + storedColumn + right
            }
        }
    }

    /// Splits `value` into pieces of at most `columns` terminal columns, counting every
    /// non-ASCII character as two (wide) and combining marks as none.
    static func wrap(_ value: String, columns: Int) -> [String] {
        var chunks: [String] = []
        var current = ""
        var used = 0
        for character in value {
            let width = character.unicodeScalars.allSatisfy(\.isASCII) ? 1 : 2
            if used + width > columns, !current.isEmpty {
                chunks.append(current)
                current = ""
                used = 0
            }
            current.append(character)
            used += width
        }
        chunks.append(current)
        return chunks
    }

    /// The terminal's width, or 80 when standard output is not a terminal (or narrower than 40).
    static func terminalWidth() -> Int {
        guard let size = TerminalSize.ofStandardOutput(), size.columns >= 40 else { return 80 }
        return size.columns
    }
}
