import AccountHandoff

/// One account string and what the account-text profile (Spec 3.7, T1-T7) says about it.
package struct AccountTextCase: Sendable {
    /// What the case shows, e.g. `"Persian: ZWNJ between joining letters"`.
    package let name: String
    /// The offer field the string is checked as.
    package let field: HandoffError.Field
    /// The string, code point by code point as written (nothing is normalised).
    package let value: String
    /// `nil` when the string is accepted; otherwise the rule that refuses it (`"T2"`, ...).
    package let refusedBy: String?

    /// `accepted`, or the error identifier `malformed.<field>`.
    package var expected: String { refusedBy == nil ? "accepted" : "malformed.\(field.rawValue)" }
}

/// The `displayStrings` cases: real names in many scripts that pass, and at least one string for
/// every class of characters and every limit that T1-T7 refuse, with the boundary next to it.
/// The Swift library and the Python verifier must agree on every one.
package enum AccountTextCases {
    package static let all: [AccountTextCase] = accepted + refusedCharacters + joiners + spaces + marksAndUnits
        + hosts + lengths

    private static func accept(_ name: String, _ value: String, as field: HandoffError.Field = .displayName) -> AccountTextCase {
        AccountTextCase(name: name, field: field, value: value, refusedBy: nil)
    }

    private static func refuse(_ rule: String, _ name: String, _ value: String,
                               as field: HandoffError.Field = .displayName) -> AccountTextCase {
        AccountTextCase(name: name, field: field, value: value, refusedBy: rule)
    }

    /// A display name with `scalar` between two letters.
    private static func inside(_ scalar: UInt32) -> String { "Ada\(Character(Unicode.Scalar(scalar)!))Lovelace" }

    private static func hex(_ scalar: UInt32) -> String { "U+" + String(scalar, radix: 16, uppercase: true).leftPadded(to: 4) }

    // MARK: Accepted names

    private static let accepted: [AccountTextCase] = [
        accept("empty display name", ""),
        accept("Latin, precomposed diacritics", "Jos\u{E9} M\u{FC}ller-\u{C5}ngstr\u{F6}m"),
        accept("Latin, decomposed diacritics (not normalised)", "Jose\u{301} Mu\u{308}ller-A\u{30A}ngstro\u{308}m"),
        accept("Latin, Vietnamese with stacked tone marks", "Nguy\u{1EC5}n V\u{103}n \u{110}\u{1EE9}c"),
        accept("Greek", "\u{391}\u{3BB}\u{3AD}\u{3BE}\u{3B1}\u{3BD}\u{3B4}\u{3C1}\u{3BF}\u{3C2} \u{3A0}\u{3B1}\u{3C0}\u{3AC}\u{3C2}"),
        accept("Cyrillic", "\u{414}\u{43C}\u{438}\u{442}\u{440}\u{438}\u{439} \u{428}\u{43E}\u{441}\u{442}\u{430}\u{43A}\u{43E}\u{432}\u{438}\u{447}"),
        accept("Arabic", "\u{645}\u{62D}\u{645}\u{62F} \u{639}\u{628}\u{62F} \u{627}\u{644}\u{644}\u{647}"),
        accept("Arabic with harakat", "\u{645}\u{64F}\u{62D}\u{64E}\u{645}\u{651}\u{64E}\u{62F}"),
        accept("Persian: ZWNJ between joining letters (mi-khaham)", "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}"),
        accept("Persian: ZWNJ after dual-joining yeh before right-joining zain", "\u{645}\u{647}\u{62F}\u{6CC}\u{200C}\u{632}\u{627}\u{62F}\u{647}"),
        accept("Arabic: ZWNJ with transparent marks on both sides", "\u{628}\u{64E}\u{200C}\u{650}\u{628}"),
        accept("Arabic: ZWNJ with a transparent mark before it only", "\u{628}\u{64E}\u{200C}\u{645}"),
        accept("Hebrew with maqaf", "\u{5D3}\u{5D5}\u{5D3} \u{5D1}\u{5DF}\u{5BE}\u{5D2}\u{5D5}\u{5E8}\u{5D9}\u{5D5}\u{5DF}"),
        accept("Devanagari", "\u{926}\u{947}\u{935}\u{928}\u{93E}\u{917}\u{930}\u{940}"),
        accept("Devanagari: virama + ZWJ (half form)", "\u{915}\u{94D}\u{200D}\u{937}"),
        accept("Devanagari: virama + ZWNJ (explicit virama)", "\u{915}\u{94D}\u{200C}\u{937}"),
        accept("Bengali", "\u{9B0}\u{9AC}\u{9C0}\u{9A8}\u{9CD}\u{9A6}\u{9CD}\u{9B0}\u{9A8}\u{9BE}\u{9A5} \u{9A0}\u{9BE}\u{995}\u{9C1}\u{9B0}"),
        accept("Tamil", "\u{B9A}\u{BC1}\u{BAA}\u{BCD}\u{BAA}\u{BBF}\u{BB0}\u{BAE}\u{BA3}\u{BBF}\u{BAF} \u{BAA}\u{BBE}\u{BB0}\u{BA4}\u{BBF}"),
        accept("Thai", "\u{E2A}\u{E21}\u{E0A}\u{E32}\u{E22} \u{E43}\u{E08}\u{E14}\u{E35}"),
        accept("Chinese", "\u{738B}\u{5C0F}\u{660E}"),
        accept("Japanese: kanji", "\u{5C71}\u{7530}\u{82B1}\u{5B50}"),
        accept("Japanese: hiragana and katakana", "\u{3084}\u{307E}\u{3060} \u{30CF}\u{30CA}\u{30B3}"),
        accept("Korean syllables", "\u{AE40}\u{BBFC}\u{C900}"),
        accept("Korean compatibility jamo (not conjoining)", "\u{3131}\u{314F}"),
        accept("emoji of category So", "Ada \u{1F4EC}"),
        accept("emoji with a skin-tone modifier (Sk)", "\u{1F44D}\u{1F3FD}"),
        accept("flag of regional indicators", "\u{1F1E9}\u{1F1EA}"),
        accept("symbols and punctuation", "O'Brien & Co. (\u{20AC}) \u{2013} \u{201C}R&D\u{201D}"),
        accept("text that looks like the program's own line (Spec 3.7 leaves this to the display)", "Short code: 111 111"),
        accept("email address", "ada@example.org", as: .emailAddress),
        accept("email address with non-ASCII local part and domain", "jos\u{E9}@b\u{FC}cher.example", as: .emailAddress),
        accept("email address with a ZWNJ between Persian letters", "\u{645}\u{6CC}\u{200C}\u{62E}@example.org", as: .emailAddress),
        accept("email address with a ZWJ after a Devanagari virama", "\u{915}\u{94D}\u{200D}\u{937}@example.org", as: .emailAddress),
        accept("username", "ada", as: .username),
        accept("username with single inner spaces", "Ada King Lovelace", as: .username),
        accept("username in Cyrillic", "\u{434}\u{43C}\u{438}\u{442}\u{440}\u{438}\u{439}", as: .username),
    ] + contextRulesNotApplied

    /// Spec 3.7 T2: neither the CONTEXTO rules nor the IDNA2008 Exceptions of RFC 5892 are
    /// applied, so each code point they name is accepted where those rules would refuse it.
    private static let contextRulesNotApplied: [AccountTextCase] = [
        accept("Catalan ela geminada: U+00B7 MIDDLE DOT between two l", "Pau Gol\u{B7}la"),
        accept("U+00B7 MIDDLE DOT not between two l (CONTEXTO not applied)", "Ada\u{B7}Lovelace"),
        accept("U+0375 GREEK LOWER NUMERAL SIGN before a Latin letter (CONTEXTO not applied)", "Ada \u{375}A"),
        accept("U+05F3 HEBREW PUNCTUATION GERESH after a Latin letter (CONTEXTO not applied)", "Ada\u{5F3}"),
        accept("U+05F4 HEBREW PUNCTUATION GERSHAYIM after a Latin letter (CONTEXTO not applied)", "Ada\u{5F4}"),
        accept("U+30FB KATAKANA MIDDLE DOT without kana or Han (CONTEXTO not applied)", "Ada\u{30FB}Lovelace"),
        accept("Arabic-Indic digits U+0660...U+0669 and extended ones U+06F0...U+06F9 together (CONTEXTO not applied)",
               "\u{660}\u{669}\u{6F0}\u{6F9}"),
        accept("U+0640 ARABIC TATWEEL (IDNA2008 Exceptions not applied)", "\u{645}\u{640}\u{62D}\u{645}\u{62F}"),
        accept("U+07FA NKO LAJANYALAN (IDNA2008 Exceptions not applied)", "\u{7CA}\u{7FA}\u{7CB}"),
        accept("U+302E and U+302F HANGUL SINGLE and DOUBLE DOT TONE MARK (IDNA2008 Exceptions not applied)",
               "\u{AE40}\u{302E}\u{BBFC}\u{302F}"),
        accept("U+3031...U+3035 VERTICAL KANA REPEAT MARKS (IDNA2008 Exceptions not applied)",
               "\u{3084}\u{3031}\u{3032}\u{3033}\u{3034}\u{3035}"),
        accept("U+303B VERTICAL IDEOGRAPHIC ITERATION MARK (IDNA2008 Exceptions not applied)", "\u{4EBA}\u{303B}"),
    ]

    // MARK: T2: refused characters

    private static let bidiControls: [UInt32] = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                  0x2066, 0x2067, 0x2068, 0x2069]
    private static let otherFormat: [(UInt32, String)] = [
        (0xFEFF, "ZERO WIDTH NO-BREAK SPACE (BOM)"), (0x200B, "ZERO WIDTH SPACE"), (0x00AD, "SOFT HYPHEN"),
        (0x2060, "WORD JOINER"), (0x2061, "FUNCTION APPLICATION"), (0x2064, "INVISIBLE PLUS"),
        (0x0600, "ARABIC NUMBER SIGN (Cf, not default-ignorable)"), (0x180E, "MONGOLIAN VOWEL SEPARATOR"),
        (0xE0001, "LANGUAGE TAG"), (0xE0041, "TAG LATIN CAPITAL LETTER A"),
    ]
    private static let separators: [(UInt32, String)] = [
        (0x2028, "LINE SEPARATOR (Zl)"), (0x2029, "PARAGRAPH SEPARATOR (Zp)"), (0x00A0, "NO-BREAK SPACE"),
        (0x3000, "IDEOGRAPHIC SPACE"), (0x2000, "EN QUAD"), (0x2003, "EM SPACE"), (0x200A, "HAIR SPACE"),
        (0x1680, "OGHAM SPACE MARK"), (0x202F, "NARROW NO-BREAK SPACE"), (0x205F, "MEDIUM MATHEMATICAL SPACE"),
    ]
    private static let controls: [(UInt32, String)] = [
        (0x0000, "NUL"), (0x0007, "BELL"), (0x0009, "CHARACTER TABULATION"), (0x000A, "LINE FEED"),
        (0x000D, "CARRIAGE RETURN"), (0x001B, "ESCAPE"), (0x007F, "DELETE"), (0x0085, "NEXT LINE"), (0x009B, "CSI"),
    ]
    private static let unassignedAndPrivate: [(UInt32, String)] = [
        (0xE000, "private use (Co), BMP"), (0xF0000, "private use (Co), plane 15"), (0x10FFFD, "private use (Co), plane 16"),
        (0x0378, "unassigned (Cn)"), (0x1FAE8, "SHAKING FACE: assigned only in Unicode 15.0, so Cn in 14.0"),
        (0x31350, "CJK Extension H: assigned only in Unicode 15.0"), (0x2FFC, "assigned only in Unicode 15.1"),
        (0xFDD0, "noncharacter U+FDD0"), (0xFFFE, "noncharacter U+FFFE"), (0x1FFFF, "noncharacter U+1FFFF"),
        (0x10FFFF, "noncharacter U+10FFFF"),
    ]
    private static let ignorable: [(UInt32, String)] = [
        (0x034F, "COMBINING GRAPHEME JOINER"), (0x17B4, "KHMER VOWEL INHERENT AQ"), (0x180B, "MONGOLIAN FVS1"),
        (0xFE00, "VARIATION SELECTOR-1"), (0xE0100, "VARIATION SELECTOR-17"), (0x1D173, "MUSICAL SYMBOL BEGIN BEAM"),
        (0x3164, "HANGUL FILLER"), (0xFFA0, "HALFWIDTH HANGUL FILLER"), (0x115F, "HANGUL CHOSEONG FILLER"),
        (0x1160, "HANGUL JUNGSEONG FILLER"),
    ]

    private static let refusedCharacters: [AccountTextCase] =
        bidiControls.map { refuse("T2", "bidirectional control \(hex($0))", inside($0)) }
        + otherFormat.map { refuse("T2", "format character \(hex($0.0)) \($0.1)", inside($0.0)) }
        + separators.map { refuse("T2", "separator \(hex($0.0)) \($0.1)", inside($0.0)) }
        + controls.map { refuse("T2", "control \(hex($0.0)) \($0.1)", inside($0.0)) }
        + unassignedAndPrivate.map { refuse("T2", "\(hex($0.0)) \($0.1)", inside($0.0)) }
        + ignorable.map { refuse("T2", "default-ignorable \(hex($0.0)) \($0.1)", inside($0.0)) }
        + [
            refuse("T2", "emoji with VARIATION SELECTOR-16 U+FE0F", "\u{2615}\u{FE0F}"),
            refuse("T2", "keycap sequence (needs U+FE0F)", "1\u{FE0F}\u{20E3}"),
            refuse("T2", "subdivision flag (tag characters)", "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"),
            refuse("T2", "conjoining jamo L+V (decomposed syllable)", "\u{1100}\u{1161}"),
            refuse("T2", "conjoining jamo L+V+T", "\u{1112}\u{1161}\u{11AB}"),
            refuse("T2", "conjoining jamo, extended-A (L)", "\u{A960}\u{1161}"),
            refuse("T2", "conjoining jamo, extended-B (V)", "\u{1100}\u{D7B0}"),
            refuse("T2", "conjoining jamo alone: leading consonant (L)", inside(0x1100)),
            refuse("T2", "conjoining jamo alone: vowel (V)", inside(0x1161)),
            refuse("T2", "conjoining jamo alone: trailing consonant (T)", inside(0x11A8)),
            refuse("T2", "conjoining jamo alone: extended-A leading consonant (L)", inside(0xA960)),
            refuse("T2", "conjoining jamo alone: extended-B vowel (V)", inside(0xD7B0)),
            refuse("T2", "conjoining jamo alone: extended-B trailing consonant (T)", inside(0xD7CB)),
            refuse("T2", "right-to-left override in an email address", "ada\u{202E}gro.elpmaxe@", as: .emailAddress),
            refuse("T2", "zero width space in a username", "a\u{200B}da", as: .username),
            refuse("T2", "line separator in a username", "ada\u{2028}Short code: 111 111", as: .username),
            refuse("T2", "no-break space in an email address", "ada\u{A0}@example.org", as: .emailAddress),
        ]

    // MARK: T3: joiners

    private static let joiners: [AccountTextCase] = [
        refuse("T3", "emoji ZWJ sequence (ZWJ without virama)", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"),
        refuse("T3", "ZWJ between Latin letters", "a\u{200D}b"),
        refuse("T3", "ZWJ after a joining Arabic letter (no virama)", "\u{628}\u{200D}\u{628}"),
        refuse("T3", "ZWJ at the start", "\u{200D}\u{915}"),
        refuse("T3", "ZWJ after virama but with a mark in between", "\u{915}\u{94D}\u{93C}\u{200D}\u{937}"),
        refuse("T3", "ZWNJ between non-joining letters", "a\u{200C}b"),
        refuse("T3", "ZWNJ at the end, after a dual-joining letter", "\u{628}\u{200C}"),
        refuse("T3", "ZWNJ at the start", "\u{200C}\u{628}"),
        refuse("T3", "ZWNJ after a right-joining letter (alef)", "\u{627}\u{200C}\u{628}"),
        refuse("T3", "ZWNJ before a left-joining-only context (beh, ZWNJ, Latin)", "\u{628}\u{200C}a"),
        refuse("T3", "two ZWNJ between joining letters (ZWNJ itself is U)", "\u{628}\u{200C}\u{200C}\u{628}"),
        refuse("T3", "a ZWJ after a virama, then a ZWNJ: the ZWJ (Joining_Type C) is not skipped as T",
               "\u{628}\u{94D}\u{200D}\u{200C}\u{628}"),
        refuse("T3", "ZWNJ after tatweel (join-causing, not L or D)", "\u{640}\u{200C}\u{628}"),
        refuse("T3", "ZWNJ in an email address between Latin letters", "a\u{200C}b@example.org", as: .emailAddress),
        refuse("T3", "ZWNJ before a left-joining letter (Phags-pa RA is L; R or D must follow)", "\u{628}\u{200C}\u{A872}"),
        refuse("T3", "ZWNJ after a virama and a mark (not directly after the virama)", "\u{915}\u{94D}\u{93C}\u{200C}\u{937}"),
        accept("Arabic: ZWNJ with a transparent mark after it only", "\u{628}\u{200C}\u{650}\u{628}"),
        accept("ZWNJ after virama in a username", "\u{915}\u{94D}\u{200C}\u{937}", as: .username),
        accept("ZWNJ between Syriac dual-joining letters", "\u{712}\u{200C}\u{712}"),
        accept("ZWNJ between N'Ko dual-joining letters", "\u{7CA}\u{200C}\u{7CA}"),
        accept("ZWNJ after a left-joining letter (Manichaean) before a dual one",
               "\u{10ACD}\u{200C}\u{10AC0}"),
    ]

    // MARK: T4: spaces

    private static let spaces: [AccountTextCase] = [
        refuse("T4", "display name with a leading space", " Ada"),
        refuse("T4", "display name with a trailing space", "Ada "),
        refuse("T4", "display name with two spaces in a row", "Ada  Lovelace"),
        refuse("T4", "display name of one space", " "),
        refuse("T4", "username with a leading space", " ada", as: .username),
        refuse("T4", "username with a trailing space", "ada ", as: .username),
        refuse("T4", "username with two spaces in a row", "ada  king", as: .username),
        refuse("T4", "email address with a space", "ada lovelace@example.org", as: .emailAddress),
        refuse("T4", "email address with a trailing space", "ada@example.org ", as: .emailAddress),
        refuse("T4", "IMAP host with a space", "imap example.org", as: .imapHost),
        accept("display name with single spaces", "Augusta Ada King Lovelace"),
    ]

    // MARK: T5, T6: marks and display units

    private static let marksAndUnits: [AccountTextCase] = [
        accept("four stacked marks", "a\u{301}\u{302}\u{303}\u{304}"),
        refuse("T5", "five stacked marks", "a\u{301}\u{302}\u{303}\u{304}\u{305}"),
        refuse("T5", "five stacked marks in an email address", "a\u{301}\u{302}\u{303}\u{304}\u{305}@example.org",
               as: .emailAddress),
        accept("two runs of four marks", "a\u{301}\u{302}\u{303}\u{304}b\u{301}\u{302}\u{303}\u{304}"),
        refuse("T5", "five enclosing and nonspacing marks (Me counts)", "a\u{20DD}\u{20DE}\u{301}\u{302}\u{303}"),
        accept("spacing marks (Mc) do not count: four Mn around one Mc", "\u{915}\u{93F}\u{941}\u{942}\u{943}\u{944}"),
        refuse("T5", "Ahom: five Mn in Unicode 14.0 (U+1171E is Mc only from Unicode 16.0)",
               "\u{11700}\u{1171D}\u{1171E}\u{1171F}\u{11722}\u{11723}"),
        accept("Ahom: four Mn in Unicode 14.0", "\u{11700}\u{1171D}\u{1171E}\u{1171F}\u{11722}"),
        accept("display name of 64 units", String(repeating: "a", count: 64)),
        refuse("T6", "display name of 65 units", String(repeating: "a", count: 65)),
        accept("display name of 64 units with marks (marks count 0)", String(repeating: "e\u{301}", count: 64)),
        accept("display name of 64 units with a virama and a joiner (both count 0)",
               String(repeating: "a", count: 62) + "\u{915}\u{94D}\u{200D}\u{937}"),
        refuse("T6", "display name of 65 units with a virama and a joiner",
               String(repeating: "a", count: 63) + "\u{915}\u{94D}\u{200D}\u{937}"),
        refuse("T6", "display name of 65 units of CJK", String(repeating: "\u{738B}", count: 65)),
        accept("username of 65 units (T6 is for display names)", String(repeating: "a", count: 65), as: .username),
    ]

    // MARK: T7: host names

    private static let label63 = String(repeating: "a", count: 63)

    private static let hosts: [AccountTextCase] = [
        accept("host name", "imap.example.org", as: .imapHost),
        accept("host name with digits and hyphens", "imap-2.mail01.example.org", as: .imapHost),
        accept("single-label host", "localhost", as: .imapHost),
        accept("IPv4 address (digit labels are LDH)", "127.0.0.1", as: .imapHost),
        accept("A-label", "xn--bcher-kva.example", as: .imapHost),
        accept("label of 63 bytes", "\(label63).example", as: .imapHost),
        accept("upper case letters", "IMAP.Example.ORG", as: .imapHost),
        refuse("T7", "label of 64 bytes", "\(label63)a.example", as: .imapHost),
        refuse("T7", "label starting with a hyphen", "-imap.example.org", as: .imapHost),
        refuse("T7", "label ending with a hyphen", "imap-.example.org", as: .imapHost),
        refuse("T7", "empty label", "imap..example.org", as: .imapHost),
        refuse("T7", "leading dot", ".example.org", as: .imapHost),
        refuse("T7", "trailing dot", "imap.example.org.", as: .imapHost),
        refuse("T7", "underscore", "imap_1.example.org", as: .imapHost),
        refuse("T7", "non-ASCII letters (U-label)", "b\u{FC}cher.example", as: .imapHost),
        refuse("T7", "port in the host", "imap.example.org:993", as: .imapHost),
        refuse("T7", "IPv6 literal", "[::1]", as: .imapHost),
        refuse("T7", "fullwidth full stop as separator", "imap\u{FF0E}example.org", as: .imapHost),
    ]

    // MARK: T1: byte lengths

    private static let lengths: [AccountTextCase] = [
        accept("display name of 256 bytes (64 four-byte emoji)", String(repeating: "\u{1F4EC}", count: 64)),
        refuse("T1", "display name of 257 bytes within 64 units",
               String(repeating: "\u{1F4EC}", count: 63) + "a\u{301}\u{301}"),
        accept("email address of 320 bytes", String(repeating: "a", count: 308) + "@example.org", as: .emailAddress),
        refuse("T1", "email address of 321 bytes", String(repeating: "a", count: 309) + "@example.org", as: .emailAddress),
        refuse("T1", "empty email address", "", as: .emailAddress),
        accept("username of 320 bytes", String(repeating: "\u{E9}", count: 160), as: .username),
        refuse("T1", "username of 321 bytes", String(repeating: "\u{E9}", count: 160) + "a", as: .username),
        refuse("T1", "empty username", "", as: .username),
        accept("IMAP host of 253 bytes", [label63, label63, label63, String(repeating: "b", count: 61)].joined(separator: "."),
               as: .imapHost),
        refuse("T1", "IMAP host of 254 bytes", [label63, label63, label63, String(repeating: "b", count: 62)].joined(separator: "."),
               as: .imapHost),
        refuse("T1", "empty IMAP host", "", as: .imapHost),
    ]
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
