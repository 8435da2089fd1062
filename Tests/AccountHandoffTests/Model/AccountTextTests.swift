import AccountHandoffTestSupport
import Foundation
import TestProcesses
import Testing
@testable import AccountHandoff

/// Spec 3.7: the Swift tables and rules against the independent Python implementation
/// (Verifier/account_text.py), code point by code point and string by string.
@Suite(.startsProcesses) struct AccountTextTests {
    /// Cases aimed at the rule logic (T3 contexts, T4-T7 boundaries); the full list of
    /// scripts and refused classes is `AccountTextCases` (the `displayStrings` vectors).
    static let cases: [(HandoffError.Field, String, Bool)] = [
        (.displayName, "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}", true),  // Persian ZWNJ
        (.displayName, "\u{628}\u{64E}\u{200C}\u{650}\u{628}", true),  // ZWNJ, marks (T) on both sides
        (.displayName, "\u{628}\u{200C}\u{200C}\u{628}", false),  // ZWNJ is U, so the second has no context
        (.displayName, "\u{627}\u{200C}\u{628}", false),  // alef is R: no L/D before
        (.displayName, "\u{628}\u{200C}\u{627}", true),
        (.displayName, "\u{640}\u{200C}\u{628}", false),  // tatweel is C
        (.displayName, "\u{628}\u{200C}", false),
        (.displayName, "\u{200C}\u{628}", false),
        (.displayName, "\u{915}\u{94D}\u{200D}\u{937}", true),
        (.displayName, "\u{915}\u{94D}\u{200C}\u{937}", true),
        (.displayName, "\u{915}\u{94D}\u{93C}\u{200D}\u{937}", false),  // nukta between virama and ZWJ
        (.displayName, "\u{1F468}\u{200D}\u{1F469}", false),
        (.displayName, "a\u{301}\u{302}\u{303}\u{304}", true),
        (.displayName, "a\u{301}\u{302}\u{303}\u{304}\u{305}", false),
        (.displayName, "\u{11700}\u{1171D}\u{1171E}\u{1171F}\u{11722}\u{11723}", false),  // U+1171E is Mn in 14.0
        (.displayName, String(repeating: "a", count: 64), true),
        (.displayName, String(repeating: "a", count: 65), false),
        (.displayName, String(repeating: "e\u{301}", count: 64), true),
        (.displayName, String(repeating: "\u{1F4EC}", count: 64), true),  // 256 bytes
        (.displayName, String(repeating: "\u{1F4EC}", count: 63) + "a\u{301}\u{301}", false),  // 257 bytes
        (.displayName, "", true),
        (.displayName, "Ada Lovelace", true),
        (.displayName, " Ada", false),
        (.displayName, "Ada ", false),
        (.displayName, "Ada  Lovelace", false),
        (.displayName, "Ada\u{A0}Lovelace", false),
        (.displayName, "Ada\u{1FAE8}", false),  // assigned in 15.0 only
        (.displayName, "Ada\u{FFFF}", false),
        (.displayName, "\u{1100}\u{1161}", false),
        (.displayName, "\u{AC00}", true),
        (.username, "Ada King", true),
        (.username, "", false),
        (.username, String(repeating: "a", count: 320), true),
        (.username, String(repeating: "a", count: 321), false),
        (.emailAddress, "ada@example.org", true),
        (.emailAddress, "ada @example.org", false),
        (.emailAddress, String(repeating: "a", count: 309) + "@example.org", false),
        (.imapHost, "imap.example.org", true),
        (.imapHost, "127.0.0.1", true),
        (.imapHost, "xn--bcher-kva.example", true),
        (.imapHost, String(repeating: "a", count: 63) + ".org", true),
        (.imapHost, String(repeating: "a", count: 64) + ".org", false),
        (.imapHost, "-imap.example.org", false),
        (.imapHost, "imap-.example.org", false),
        (.imapHost, "imap..example.org", false),
        (.imapHost, "imap.example.org.", false),
        (.imapHost, "b\u{FC}cher.example", false),
        (.imapHost, "imap_1.example.org", false),
    ]

    @Test func rulesAcceptAndRefuseWithTheFieldNamed() {
        for (field, value, accepted) in Self.cases {
            let check = { () throws(HandoffError) in try VectorPrimitives.validateAccountText(value, field: field) }
            if accepted {
                #expect(throws: Never.self, "\(field) \(Self.escaped(value))") { try check() }
            } else {
                #expect(throws: HandoffError.malformed(field), "\(field) \(Self.escaped(value))") { try check() }
            }
        }
    }

    /// The ASCII shortcut gives the table walk's answer: for every ASCII byte alone, between
    /// letters and repeated to the display-unit limit and past it, for each kind; and it
    /// declines every string with a byte of 0x80 or more.
    @Test func theASCIIShortcutAgreesWithTheTables() {
        let kinds: [AccountText.Kind] = [.displayName, .emailAddress, .username, .imapHost]
        for byte in UInt8(0)..<0x80 {
            let scalar = String(UnicodeScalar(byte))
            for value in [scalar, "a\(scalar)b", String(repeating: scalar, count: 64), String(repeating: scalar, count: 65)] {
                for kind in kinds {
                    let shortcut = Array(value.utf8).withUnsafeBufferPointer { AccountText.asciiCodePointsAreValid($0, kind: kind) }
                    #expect(shortcut == AccountText.codePointsAreValid(value.unicodeScalars, kind: kind), "\(kind) \(Self.escaped(value))")
                }
            }
        }
        for value in ["caf\u{E9}", "\u{80}", "a\u{301}", "\u{1F4EC}"] {
            #expect(Array(value.utf8).withUnsafeBufferPointer { AccountText.asciiCodePointsAreValid($0, kind: .displayName) } == nil)
        }
    }

    @Test func pythonVerifierAgreesOnEveryCase() throws {
        let input = try Self.cases.map { field, value, _ in
            String(decoding: try JSONSerialization.data(withJSONObject: ["field": field.rawValue, "value": value]), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
        let lines = try PythonVerifier.run(arguments: [], input: Data(input.utf8)).split(separator: "\n")
        try #require(lines.count == Self.cases.count)
        for ((field, value, accepted), line) in zip(Self.cases, lines) {
            let expected = accepted ? "accepted" : "malformed.\(field.rawValue)"
            #expect(line == "{\"result\": \"\(expected)\"}", "\(field) \(Self.escaped(value))")
        }
    }

    /// Every code point: refused by T2, mark, virama and Joining_Type, as the Swift tables say
    /// and as Python derives them from its own Unicode 14.0 `unicodedata`.
    @Test func swiftTablesMatchPythonForEveryCodePoint() throws {
        let python = try PythonVerifier.run(arguments: ["--properties"], input: Data())
        // Built as bytes: appending 1.1 million short strings took seconds.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(python.utf8.count)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = AccountTextProperties.of(scalar)
            bytes.append(properties.contains(.refused) ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            bytes.append(properties.contains(.mark) ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            bytes.append(properties.contains(.virama) ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            bytes.append(Self.letter(JoiningType.of(scalar)).utf8.first!)
            bytes.append(UInt8(ascii: "\n"))
        }
        guard !bytes.elementsEqual(python.utf8) else { return }
        let swift = String(decoding: bytes, as: UTF8.self)
        let mismatch = zip(swift.split(separator: "\n"), python.split(separator: "\n")).enumerated().first { $0.element.0 != $0.element.1 }
        Issue.record("first mismatch at line \(mismatch?.offset ?? -1): Swift \(mismatch?.element.0 ?? "") Python \(mismatch?.element.1 ?? "")")
    }

    /// Spec/account-text-tables.txt, the normative data of Spec 3.7 that the independent verifier
    /// reads, says for every code point exactly what the Swift tables say.
    @Test func specDataFileEqualsTheSwiftTables() throws {
        let groups = try SpecTextTables.load()
        let expectedGroups = ["T2.refused", "T5.mark", "T3.virama", "T6.zeroUnits", "allowed.displayName",
                              "allowed.emailAddress", "allowed.imapHost"] + "CDLRT".map { "Joining_Type=\($0)" }
        for name in expectedGroups { try #require(groups[name] != nil, "no group \(name)") }
        let refused = SpecTextTables.members(groups["T2.refused"]!)
        let mark = SpecTextTables.members(groups["T5.mark"]!)
        let virama = SpecTextTables.members(groups["T3.virama"]!)
        let zeroUnits = SpecTextTables.members(groups["T6.zeroUnits"]!)
        let allowed = SpecTextTables.members(groups["allowed.displayName"]!)
        var joining = [UInt8](repeating: UInt8(ascii: "U"), count: 0x110000)
        for letter in "CDLRT" {
            for (first, last) in groups["Joining_Type=\(letter)"]! {
                for code in first...last { joining[Int(code)] = UInt8(ascii: letter.unicodeScalars.first!) }
            }
        }
        var mismatches: [String] = []
        for value in UInt32(0)...0x10FFFF {
            let code = Int(value)
            guard let scalar = Unicode.Scalar(value) else {  // a surrogate: refused, never allowed
                if !refused[code] || allowed[code] { mismatches.append("U+\(String(value, radix: 16)) (surrogate)") }
                continue
            }
            let properties = AccountTextProperties.of(scalar)
            let isJoiner = properties.contains(.joiner)
            // The six facts packed into one number each (comparing six-element tuples 1.1 million
            // times took seconds).
            let fileSays = Self.packed(refused[code], mark[code], virama[code], zeroUnits[code], allowed[code], joining[code])
            let swiftSays = Self.packed(properties.contains(.refused), properties.contains(.mark), properties.contains(.virama),
                                        properties.contains(.mark) || isJoiner, !properties.contains(.refused),
                                        UInt8(ascii: Self.letter(JoiningType.of(scalar)).unicodeScalars.first!))
            if fileSays != swiftSays { mismatches.append("U+\(String(value, radix: 16, uppercase: true))") }
        }
        #expect(mismatches.isEmpty, "Spec/account-text-tables.txt and the Swift tables differ at \(mismatches.prefix(20))")
        let email = SpecTextTables.members(groups["allowed.emailAddress"]!)
        #expect(!email[0x20] && allowed[0x20] && zip(email, allowed).enumerated().allSatisfy { $0.offset == 0x20 || $0.element.0 == $0.element.1 })
        let host = groups["allowed.imapHost"]!
        #expect(host.map { [$0.0, $0.1] } == [[0x2D, 0x2E], [0x30, 0x39], [0x41, 0x5A], [0x61, 0x7A]],
                "allowed.imapHost is the LDH set and the dot")
    }

    /// The generated table, not the Swift runtime's Unicode data, decides: they differ for code
    /// points whose properties changed after 14.0, and the runtime's version follows the OS.
    @Test func tablesKeepUnicode14ValuesWhereTheRuntimeDiffers() throws {
        let ahomMedialRa = try #require(Unicode.Scalar(0x1171E))
        #expect(AccountTextProperties.of(ahomMedialRa).contains(.mark))
        #expect(JoiningType.of(ahomMedialRa) == .transparent)
        // Assigned in Unicode 15.0: refused even where the runtime knows the character.
        for value: UInt32 in [0x1FAE8, 0x31350, 0x11F00, 0x2FFC] {
            #expect(AccountTextProperties.of(try #require(Unicode.Scalar(value))) == .refused)
        }
        #expect(JoiningType.of("\u{200C}") == .nonJoining)
        #expect(JoiningType.of("\u{200D}") == .joinCausing)
        #expect(AccountTextProperties.of("\u{200C}") == .joiner)
    }

    /// Refused, mark, virama, zero units and allowed as bits 0-4, the Joining_Type letter above them.
    private static func packed(_ refused: Bool, _ mark: Bool, _ virama: Bool, _ zeroUnits: Bool, _ allowed: Bool,
                               _ joining: UInt8) -> UInt16 {
        (refused ? 1 : 0) | (mark ? 2 : 0) | (virama ? 4 : 0) | (zeroUnits ? 8 : 0) | (allowed ? 16 : 0) | UInt16(joining) << 8
    }

    private static func letter(_ type: JoiningType) -> String {
        switch type {
        case .nonJoining: "U"
        case .right: "R"
        case .left: "L"
        case .dual: "D"
        case .joinCausing: "C"
        case .transparent: "T"
        }
    }

    static func escaped(_ value: String) -> String {
        value.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "<U+\(String($0.value, radix: 16))>" }.joined()
    }
}

/// Spec/account-text-tables.txt: `FIRST..LAST ; NAME` lines grouped by name (Spec 3.7).
enum SpecTextTables {
    static func load() throws -> [String: [(UInt32, UInt32)]] {
        let url = PythonVerifier.repository.appendingPathComponent("Spec/account-text-tables.txt")
        var groups: [String: [(UInt32, UInt32)]] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard !data.allSatisfy(\.isWhitespace) else { continue }
            let parts = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let bounds = parts[0].components(separatedBy: "..")
            let first = try #require(UInt32(bounds[0], radix: 16), "bad line \(line)")
            let last = try #require(UInt32(bounds.last!, radix: 16), "bad line \(line)")
            groups[parts[1], default: []].append((first, last))
        }
        return groups
    }

    /// One flag per code point, set for the members of `ranges`.
    static func members(_ ranges: [(UInt32, UInt32)]) -> [Bool] {
        var flags = [Bool](repeating: false, count: 0x110000)
        for (first, last) in ranges { for code in first...last { flags[Int(code)] = true } }
        return flags
    }
}

/// Runs Verifier/account_text.py with the system Python (Unicode 14.0 in Python 3.11).
enum PythonVerifier {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func run(arguments: [String], input: Data) throws -> String {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                          [repository.appendingPathComponent("Verifier/account_text.py").path] + arguments, input: input)
        try #require(result.status == 0, "account_text.py exited with \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
