import AccountHandoff
import AccountHandoffTestSupport

/// `plaintexts.json` `invalidOffer`: offer plaintexts that fail, each with the error of the
/// first failing check of Spec 3.4 (unpad, parse, then the field rules of 3.7 in field order
/// with port 0 last). Cases with two faults pin which check comes first.
enum InvalidOfferVectors {
    /// Pads a record exactly as the protocol does (Spec 3.4), for hand-made records.
    static func pad(_ record: [UInt8]) -> [UInt8] {
        let total = (2 + record.count + 255) / 256 * 256
        return [UInt8(record.count >> 8), UInt8(record.count & 0xff)] + record + [UInt8](repeating: 0, count: total - 2 - record.count)
    }

    private static func str(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)] + bytes }

    private static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A record with the given field bytes; the defaults form a valid record.
    static func record(name: [UInt8] = Array("Ada".utf8), email: [UInt8] = Array("ada@example.org".utf8),
                       user: [UInt8] = Array("ada".utf8), host: [UInt8] = Array("imap.example.org".utf8),
                       port: [UInt8] = [0x03, 0xe1], security: [UInt8] = [1], senderGate: [UInt8] = [1]) -> [UInt8] {
        PlaintextVectors.linkID("invalid").bytes + str(name) + str(email) + str(user) + str(host) + port + security + senderGate
    }

    private static func check(_ name: String, _ plaintext: [UInt8], _ expected: HandoffError) throws -> JSONValue {
        try VectorSupport.expectError(expected, "offer \(name)") { () throws(HandoffError) in
            _ = try VectorPrimitives.decodeOfferPlaintext(plaintext)
        }
        return .object(["name": .string(name), "plaintext": .hex(plaintext), "error": .string(expected.identifier)])
    }

    static func make() throws -> [JSONValue] {
        let good = pad(record())
        guard (try? VectorPrimitives.decodeOfferPlaintext(good)) != nil else { throw VectorGenerationError("base offer record invalid") }
        let patched = VectorSupport.patched
        let port0 = [UInt8](repeating: 0, count: 2)
        // Strings that parse but break a rule of 3.7 (step 3), one per field.
        let badName = utf8("A\u{202E}"), badEmail = utf8("a b"), badUser = utf8(" ada"), badHost = utf8("-imap")
        let allBad = record(name: badName, email: badEmail, user: badUser, host: badHost)
        var cases: [(String, [UInt8], HandoffError)] = [
            // Step 1: unpad.
            ("empty plaintext", [], .malformed(.padding)),
            ("one byte", [0], .malformed(.padding)),
            ("255 bytes", Array(good.prefix(255)), .malformed(.padding)),
            ("non-zero last padding byte", patched(good, 255, 1), .malformed(.padding)),
            ("non-zero first padding byte", patched(good, 2 + record().count, 1), .malformed(.padding)),
            ("record length needs two blocks, one present", patched(good, 0, 0x01), .malformed(.padding)),
            ("512 bytes for a one-block record", good + [UInt8](repeating: 0, count: 256), .malformed(.padding)),
            ("record length 255 in 256 bytes (needs 512)", patched(patched(good, 0, 0), 1, 255), .malformed(.padding)),
            ("non-zero padding and a truncated link ID (step 1 before step 2)", patched(pad(Array(record().prefix(10))), 200, 1),
             .malformed(.padding)),
            ("four bytes: a size that is not the padded size, and a truncated link ID (step 1 before step 2)", [0, 2, 0x41, 0x42],
             .malformed(.padding)),
            // Step 2: parse.
            ("record length one too large (still one block): a zero byte trails the record", patched(good, 1, good[1] + 1),
             .malformed(.trailingBytes)),
            ("truncated link ID", pad(Array(record().prefix(10))), .malformed(.accountLinkID)),
            ("display name length beyond the record", pad(Array(record().prefix(17)) + [0x40]), .malformed(.displayName)),
            ("invalid UTF-8 in display name", pad(record(name: [0xc3, 0x28])), .malformed(.displayName)),
            ("overlong UTF-8 in e-mail", pad(record(email: [0xc0, 0xaf])), .malformed(.emailAddress)),
            ("UTF-16 surrogate in username", pad(record(user: [0xed, 0xa0, 0x80])), .malformed(.username)),
            ("display name breaks T2 and username holds a surrogate: parsing (step 2) before the rules (step 3)",
             pad(record(name: utf8("Ada\u{202E}"), user: [0xed, 0xa0, 0x80])), .malformed(.username)),
            ("code point above U+10FFFF in host", pad(record(host: [0xf4, 0x90, 0x80, 0x80])), .malformed(.imapHost)),
            ("missing port", pad(Array(record().dropLast(4))), .malformed(.imapPort)),
            ("one byte of port", pad(Array(record().dropLast(3))), .malformed(.imapPort)),
            ("missing security byte", pad(Array(record().dropLast(2))), .malformed(.imapSecurity)),
            ("security 0", pad(record(security: [0])), .malformed(.imapSecurity)),
            ("security 3 (plaintext IMAP is not representable)", pad(record(security: [3])), .malformed(.imapSecurity)),
            ("missing sender gate byte", pad(Array(record().dropLast())), .malformed(.senderGate)),
            ("sender gate 0", pad(record(senderGate: [0])), .malformed(.senderGate)),
            ("sender gate 3", pad(record(senderGate: [3])), .malformed(.senderGate)),
            ("sender gate 255", pad(record(senderGate: [255])), .malformed(.senderGate)),
            ("security 3 and sender gate 3: security reported (the security byte before the gate)",
             pad(record(security: [3], senderGate: [3])), .malformed(.imapSecurity)),
            ("sender gate 3 and a trailing byte: sender gate reported (the gate before trailing bytes)",
             pad(record(senderGate: [3]) + [0]), .malformed(.senderGate)),
            ("sender gate 0, every string breaking the rules and port 0: sender gate reported (parse before rules)",
             pad(record(name: utf8("A\u{202E}"), email: utf8("a b"), user: utf8(" ada"), host: utf8("-imap"), port: [0, 0],
                        senderGate: [0])), .malformed(.senderGate)),
            ("trailing byte after the record", pad(record() + [0]), .malformed(.trailingBytes)),
            ("security 3 and a trailing byte: security reported (the security byte before trailing bytes)",
             pad(record(security: [3]) + [0]), .malformed(.imapSecurity)),
            // Step 2 before step 3: the text rules apply only to a completely parsed record.
            ("U+202E in display name and a missing security byte (parse before rules)",
             pad(Array(record(name: utf8("A\u{202E}")).dropLast(2))), .malformed(.imapSecurity)),
            ("line feed in host and a trailing byte (control characters are a step-3 rule)",
             pad(record(host: utf8("imap\n.example.org")) + [0]), .malformed(.trailingBytes)),
            ("invalid UTF-8 in username and U+202E in display name (parse before rules)",
             pad(record(name: utf8("A\u{202E}"), user: [0xff])), .malformed(.username)),
            ("e-mail cut short and U+202E in display name (parse before rules)",
             pad(Array(record(name: badName).prefix(16 + 2 + badName.count)) + [0, 64]), .malformed(.emailAddress)),
            ("username cut short, display name and e-mail breaking the rules (parse before rules)",
             pad(Array(record(name: badName, email: badEmail).prefix(16 + 4 + badName.count + badEmail.count)) + [0, 64]),
             .malformed(.username)),
            ("host cut short, every other string breaking the rules (parse before rules)",
             pad(Array(allBad.prefix(16 + 6 + badName.count + badEmail.count + badUser.count)) + [0, 64]), .malformed(.imapHost)),
            ("missing port, every string breaking the rules (parse before rules)", pad(Array(allBad.dropLast(4))), .malformed(.imapPort)),
            ("missing security byte, every string breaking the rules (parse before rules)", pad(Array(allBad.dropLast(2))),
             .malformed(.imapSecurity)),
            ("a trailing byte, every string breaking the rules (parse before rules)", pad(allBad + [0]), .malformed(.trailingBytes)),
            // Step 3: field rules in field order.
            ("empty e-mail", pad(record(email: [])), .malformed(.emailAddress)),
            ("empty username", pad(record(user: [])), .malformed(.username)),
            ("empty host", pad(record(host: [])), .malformed(.imapHost)),
            ("display name of 257 bytes", pad(record(name: [UInt8](repeating: 0x61, count: 257))), .malformed(.displayName)),
            ("e-mail of 321 bytes", pad(record(email: [UInt8](repeating: 0x61, count: 321))), .malformed(.emailAddress)),
            ("host of 254 bytes", pad(record(host: utf8(PlaintextVectors.host(254)))), .malformed(.imapHost)),
            ("line feed in host (control character)", pad(record(host: utf8("imap\n.example.org"))), .malformed(.imapHost)),
            ("U+0085 in display name (C1 control)", pad(record(name: [0x41, 0xc2, 0x85])), .malformed(.displayName)),
            ("NUL in username", pad(record(user: [0x61, 0x00])), .malformed(.username)),
            ("U+202E in display name (bidirectional override)", pad(record(name: utf8("Ada \u{202E}gro"))), .malformed(.displayName)),
            ("U+2028 in display name (line separator)", pad(record(name: utf8("Ada\u{2028}Short code: 111 111"))), .malformed(.displayName)),
            ("U+200B in username (zero width space)", pad(record(user: utf8("ad\u{200B}a"))), .malformed(.username)),
            ("U+00A0 in e-mail (no-break space)", pad(record(email: utf8("ada\u{A0}example.org"))), .malformed(.emailAddress)),
            ("ZWJ between Latin letters in display name", pad(record(name: utf8("a\u{200D}b"))), .malformed(.displayName)),
            ("display name padded with spaces", pad(record(name: utf8("Ada  Lovelace"))), .malformed(.displayName)),
            ("five stacked marks in username", pad(record(user: utf8("a\u{301}\u{302}\u{303}\u{304}\u{305}"))), .malformed(.username)),
            ("display name of 65 units", pad(record(name: utf8(String(repeating: "x", count: 65)))), .malformed(.displayName)),
            ("host with a trailing dot", pad(record(host: utf8("imap.example.org."))), .malformed(.imapHost)),
            ("empty display name and bad e-mail: e-mail reported", pad(record(name: [], email: [0x7f])), .malformed(.emailAddress)),
            ("bad display name and bad e-mail: display name reported first", pad(record(name: utf8(" Ada"), email: utf8("a b"))),
             .malformed(.displayName)),
            ("bad e-mail and bad username: e-mail reported first", pad(record(email: utf8("a b"), user: utf8(" ada"))),
             .malformed(.emailAddress)),
            ("bad username and bad host: username reported first", pad(record(user: utf8("a\u{200B}"), host: utf8("-imap"))),
             .malformed(.username)),
            ("every field breaking its rules, port 0: display name reported first",
             pad(record(name: badName, email: badEmail, user: badUser, host: badHost, port: port0)), .malformed(.displayName)),
            ("e-mail, username and host breaking their rules, port 0: e-mail reported first",
             pad(record(email: badEmail, user: badUser, host: badHost, port: port0)), .malformed(.emailAddress)),
            ("username and host breaking their rules, port 0: username reported first",
             pad(record(user: badUser, host: badHost, port: port0)), .malformed(.username)),
            // Port 0: checked in step 3, after the strings, not while parsing.
            ("port 0", pad(record(port: port0)), .malformed(.imapPort)),
            ("port 0 and security 3: security reported (port 0 is not a parse error)", pad(record(port: port0, security: [3])),
             .malformed(.imapSecurity)),
            ("port 0 and a missing security byte: security reported", pad(Array(record(port: port0).dropLast(2))),
             .malformed(.imapSecurity)),
            ("port 0 and a trailing byte: trailing bytes reported", pad(record(port: port0) + [0]), .malformed(.trailingBytes)),
            ("port 0 and U+202E in display name: display name reported", pad(record(name: utf8("A\u{202E}"), port: port0)),
             .malformed(.displayName)),
            ("port 0 and a host with a space: host reported (host before port)", pad(record(host: utf8("imap example.org"), port: port0)),
             .malformed(.imapHost)),
        ]
        // Larger offers fail the same way: a two-block record with a non-zero last byte.
        let twoBlocks = pad(record(user: [UInt8](repeating: 0x75, count: 300)))
        cases.append(("two-block offer with a non-zero last padding byte", patched(twoBlocks, twoBlocks.count - 1, 1), .malformed(.padding)))
        return try cases.map { try check($0.0, $0.1, $0.2) }
    }
}
