import AccountHandoff

/// One account string and what the account-text profile (Spec 3.7, T1-T7) says about it.
package struct AccountTextCase: Sendable {
    /// What the case shows.
    package let name: String
    /// The offer field the string is checked as.
    package let field: HandoffError.Field
    /// The string, code point by code point as written (nothing is normalised).
    package let value: String
    /// `nil` when the string is accepted; otherwise the rule that refuses it (`"T2"`, ...).
    package let refusedBy: String?
}

/// The `displayStrings` cases: accepted names in many scripts, and at least one refused string
/// for every class the rules refuse. `plaintexts.json` (`displayStrings`) records them.
///
/// Owner: the "coretests" engineer, whose branch holds the full list (with the same API); this
/// first list keeps the vectors building until it lands.
package enum AccountTextCases {
    private static func accepted(_ name: String, _ field: HandoffError.Field, _ text: String) -> AccountTextCase {
        AccountTextCase(name: name, field: field, value: text, refusedBy: nil)
    }

    private static func refused(_ name: String, _ field: HandoffError.Field, _ rule: String, _ text: String) -> AccountTextCase {
        AccountTextCase(name: name, field: field, value: text, refusedBy: rule)
    }

    /// Every case, accepted ones first.
    package static let all: [AccountTextCase] = acceptedNames + refusedByLength + refusedCharacters + refusedJoiners + refusedShapes

    static let acceptedNames: [AccountTextCase] = [
        accepted("Latin", .displayName, "Ada Lovelace"),
        accepted("Latin with diacritics", .displayName, "Zoë Ñúñez"),
        accepted("Greek", .displayName, "Αλέξανδρος Παπαδόπουλος"),
        accepted("Cyrillic", .displayName, "Пётр Чайковский"),
        accepted("Arabic", .displayName, "محمد علي"),
        accepted("Persian with ZWNJ between two dual-joining letters", .displayName, "می\u{200C}خواهم"),
        accepted("Hebrew", .displayName, "דוד לוי"),
        accepted("Devanagari with ZWJ after a virama", .displayName, "क्\u{200D}ष"),
        accepted("Devanagari with ZWNJ after a virama", .displayName, "क्\u{200C}ष"),
        accepted("Thai", .displayName, "สมชาย ใจดี"),
        accepted("CJK", .displayName, "山田太郎"),
        accepted("Korean syllables", .displayName, "김민준"),
        accepted("emoji of category So", .displayName, "Ada \u{1F680}"),
        accepted("empty display name", .displayName, ""),
        accepted("four combining marks in a row", .displayName, "a\u{301}\u{302}\u{303}\u{304}"),
        accepted("64 display units", .displayName, String(repeating: "x", count: 64)),
        accepted("64 display units in 67 code points (marks count 0)", .displayName, String(repeating: "x", count: 63) + "a\u{301}\u{302}\u{303}"),
        accepted("64 display units with a ZWJ after a virama (joiners count 0)", .displayName, String(repeating: "x", count: 62) + "क्\u{200D}ष"),
        accepted("256 bytes in 64 display units (64 four-byte emoji)", .displayName, String(repeating: "\u{1F600}", count: 64)),
        accepted("ASCII address", .emailAddress, "ada@example.org"),
        accepted("internationalised address", .emailAddress, "zoë@exämple.org"),
        accepted("320-byte address", .emailAddress, String(repeating: "e", count: 308) + "@example.org"),
        accepted("ASCII username", .username, "ada"),
        accepted("username with one inner space", .username, "Ada Lovelace"),
        accepted("320-byte username", .username, String(repeating: "u", count: 320)),
        accepted("host name", .imapHost, "imap.example.org"),
        accepted("A-label host", .imapHost, "imap.xn--exmple-cua.org"),
        accepted("single-label host", .imapHost, "localhost"),
        accepted("63-byte label", .imapHost, String(repeating: "h", count: 63) + ".example.org"),
        accepted("253-byte host", .imapHost, [String](repeating: String(repeating: "h", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "h", count: 61)),
    ]

    static let refusedByLength: [AccountTextCase] = [
        refused("257 bytes in 33 display units", .displayName, "T1",
                String(repeating: "a\u{301}\u{302}\u{303}\u{304}", count: 28) + "aaaaa"),
        refused("empty address", .emailAddress, "T1", ""),
        refused("321-byte address", .emailAddress, "T1", String(repeating: "e", count: 309) + "@example.org"),
        refused("empty username", .username, "T1", ""),
        refused("321-byte username", .username, "T1", String(repeating: "u", count: 321)),
        refused("empty host", .imapHost, "T1", ""),
        refused("254-byte host", .imapHost, "T1", [String](repeating: String(repeating: "h", count: 63), count: 4).joined(separator: ".") + "h"),
    ]

    static let refusedCharacters: [AccountTextCase] = [
        refused("Cc: NUL", .username, "T2", "ada\u{0}"),
        refused("Cc: line feed", .displayName, "T2", "Ada\nShort code: 111 111"),
        refused("Cc: C1 control U+0085", .displayName, "T2", "A\u{85}"),
        refused("Cc: DEL", .emailAddress, "T2", "ada\u{7F}@example.org"),
        refused("Co: private use U+E000", .displayName, "T2", "Ada \u{E000}"),
        refused("Cn: unassigned U+0378", .displayName, "T2", "Ada \u{378}"),
        refused("Cn: noncharacter U+FFFF", .username, "T2", "ada\u{FFFF}"),
        refused("Cn: assigned after Unicode 14.0 (U+1FAE8, Unicode 15)", .displayName, "T2", "Ada \u{1FAE8}"),
        refused("Zl: line separator U+2028", .displayName, "T2", "Ada\u{2028}Short code: 111 111"),
        refused("Zp: paragraph separator U+2029", .displayName, "T2", "Ada\u{2029}Lovelace"),
        refused("Zs: no-break space U+00A0", .displayName, "T2", "Ada\u{A0}Lovelace"),
        refused("Zs: em space U+2003", .username, "T2", "ada\u{2003}x"),
        refused("Zs: ideographic space U+3000", .displayName, "T2", "山田\u{3000}太郎"),
        refused("Cf: right-to-left override U+202E", .displayName, "T2", "Ada \u{202E}gro.elpmaxe"),
        refused("Cf: left-to-right isolate U+2066", .displayName, "T2", "\u{2066}Ada\u{2069}"),
        refused("Cf: Arabic letter mark U+061C", .displayName, "T2", "محمد\u{61C}"),
        refused("Cf: left-to-right mark U+200E", .emailAddress, "T2", "ada\u{200E}@example.org"),
        refused("Cf: soft hyphen U+00AD", .displayName, "T2", "Ada\u{AD}Lovelace"),
        refused("Cf: zero width space U+200B", .username, "T2", "ad\u{200B}a"),
        refused("Cf: word joiner U+2060", .displayName, "T2", "Ada\u{2060}"),
        refused("Cf: byte order mark U+FEFF", .displayName, "T2", "\u{FEFF}Ada"),
        refused("Cf: tag character U+E0041", .displayName, "T2", "Ada\u{E0041}"),
        refused("default ignorable: combining grapheme joiner U+034F", .displayName, "T2", "A\u{34F}da"),
        refused("default ignorable: variation selector U+FE0F", .displayName, "T2", "\u{2764}\u{FE0F}"),
        refused("default ignorable: Hangul filler U+3164", .displayName, "T2", "\u{3164}"),
        refused("default ignorable: Hangul choseong filler U+115F", .displayName, "T2", "\u{115F}김"),
        refused("conjoining jamo L U+1100", .displayName, "T2", "\u{1100}\u{1161}"),
        refused("conjoining jamo T U+11A8", .displayName, "T2", "가\u{11A8}"),
    ]

    static let refusedJoiners: [AccountTextCase] = [
        refused("ZWJ between Latin letters", .displayName, "T3", "a\u{200D}b"),
        refused("ZWJ after a dual-joining Arabic letter (no virama)", .displayName, "T3", "ی\u{200D}خ"),
        refused("ZWNJ between Latin letters", .displayName, "T3", "a\u{200C}b"),
        refused("ZWNJ at the start", .displayName, "T3", "\u{200C}خ"),
        refused("ZWNJ at the end after a dual-joining letter", .username, "T3", "ی\u{200C}"),
        refused("ZWNJ after a right-joining letter (alef)", .displayName, "T3", "ا\u{200C}خ"),
    ]

    static let refusedShapes: [AccountTextCase] = [
        refused("display name with a leading space", .displayName, "T4", " Ada"),
        refused("display name with a trailing space", .displayName, "T4", "Ada "),
        refused("display name with two spaces in a row", .displayName, "T4", "Ada  Lovelace"),
        refused("display name padded to wrap into a fake line", .displayName, "T4", "Ada" + String(repeating: " ", count: 60) + "Short code: 111 111"),
        refused("username with two spaces in a row", .username, "T4", "a  b"),
        refused("address with a space", .emailAddress, "T4", "ada @example.org"),
        refused("host with a space", .imapHost, "T4", "imap example.org"),
        refused("five combining marks in a row", .displayName, "T5", "a\u{301}\u{302}\u{303}\u{304}\u{305}"),
        refused("five enclosing marks in a row in a username", .username, "T5", "a\u{20DD}\u{20DD}\u{20DD}\u{20DD}\u{20DD}"),
        refused("65 display units", .displayName, "T6", String(repeating: "x", count: 65)),
        refused("host with an empty label", .imapHost, "T7", "imap..example.org"),
        refused("host with a trailing dot", .imapHost, "T7", "imap.example.org."),
        refused("host label starting with a hyphen", .imapHost, "T7", "-imap.example.org"),
        refused("host label ending with a hyphen", .imapHost, "T7", "imap-.example.org"),
        refused("64-byte host label", .imapHost, "T7", String(repeating: "h", count: 64) + ".example.org"),
        refused("host with an underscore", .imapHost, "T7", "imap_1.example.org"),
        refused("host in Unicode, not its A-label", .imapHost, "T7", "imap.exämple.org"),
    ]
}
