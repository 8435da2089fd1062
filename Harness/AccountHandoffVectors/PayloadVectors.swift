import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// `qr-payload.json`: field values to exact binary and text forms with the derived transfer
/// ID and the commitment's nonce, invalid texts and binaries with their error, and the
/// receiver's scan steps (Spec section 2).
enum PayloadVectors {
    static let baseExpiry: UInt32 = 1_800_000_180

    static func make() throws -> JSONValue {
        .object([
            "description": .string("QR session payload (Spec 2): valid field values with exact binary and text forms, the derived transfer ID and the nonce the commitment opens; invalid texts and binaries with the error of the first failing check (Spec 2.4); scan steps S0-S6 (Spec 2.5)."),
            "valid": .array(try valid()),
            "invalidText": .array(try invalidTexts()),
            "invalidBinary": .array(try invalidBinaries()),
            "scanChecks": .array(try ScanCheckVectors.make()),
        ])
    }

    /// A seeded payload: nonce and private key as a sender with this name's seed draws them.
    struct Seeded {
        let payload: SessionPayload
        let nonce: [UInt8]
    }

    /// A payload whose nonce and key come from the seed of `"qr/" + name`.
    static func seeded(_ name: String, expiry: UInt32 = baseExpiry, rendezvousLength: Int,
                       senderPublicKey: [UInt8]? = nil) throws -> Seeded {
        let seed = VectorSupport.seed("qr/" + name)
        let (nonce, privateKey) = VectorSupport.senderDraws(seed: seed)
        let rendezvous = VectorSupport.bytes(seed: VectorSupport.seed("qr/rendezvous/" + name), count: rendezvousLength)
        let payload = try VectorPrimitives.payload(expiry: expiry, commitment: VectorPrimitives.commitment(nonce: nonce),
                                                   senderPublicKey: try senderPublicKey ?? VectorPrimitives.x25519PublicKey(privateKey: privateKey),
                                                   rendezvous: rendezvous)
        return Seeded(payload: payload, nonce: nonce)
    }

    /// The Spec's derivations of a payload, checked against the library's.
    static func derived(_ payload: SessionPayload) throws -> (transferID: [UInt8], th0: [UInt8]) {
        let transferID = Array(VectorPrimitives.sha256([VectorSupport.ascii("AH4 transfer ID"), payload.binary]).prefix(16))
        guard transferID == payload.transferID.bytes else { throw VectorGenerationError("transfer ID differs from Spec 2.1") }
        return (transferID, VectorPrimitives.sha256([VectorSupport.ascii("AH4 transcript"), payload.binary]))
    }

    private static func valid() throws -> [JSONValue] {
        var cases: [(String, UInt32, Int)] = (0...6).map { ("rendezvous \($0) bytes", baseExpiry, $0) }
        cases += [("rendezvous 8 bytes (CLI loopback shape)", baseExpiry, 8), ("rendezvous 32 bytes (maximum)", baseExpiry, 32),
                  ("expiry 0", 0, 4), ("expiry 2^32 - 1", UInt32.max, 4), ("expiry 1", 1, 13)]
        return try cases.map { name, expiry, length in
            let seeded = try seeded(name, expiry: expiry, rendezvousLength: length)
            let payload = seeded.payload
            guard try SessionPayload(text: payload.text) == payload, try SessionPayload(binary: payload.binary) == payload,
                  payload.binary.count == 71 + length, payload.rendezvous.bytes.count == length, payload.expiry == expiry else {
                throw VectorGenerationError("payload \(name) does not round-trip or does not match its name")
            }
            let (transferID, th0) = try derived(payload)
            return .object(["name": .string(name), "fields": fields(payload), "nonce": .hex(seeded.nonce),
                            "transferID": .hex(transferID), "th0": .hex(th0), "binary": .hex(payload.binary),
                            "text": .string(payload.text), "textLength": .number(payload.text.utf8.count)])
        }
    }

    static func fields(_ payload: SessionPayload) -> JSONValue {
        .object(["version": .number(payload.version), "intent": .number(payload.intent.rawValue), "expiry": .number(payload.expiry),
                 "commitment": .hex(payload.commitment), "senderPublicKey": .hex(payload.senderPublicKey.bytes),
                 "rendezvous": .hex(payload.rendezvous.bytes)])
    }

    private static func text(_ binary: [UInt8]) -> String { "AH:" + VectorPrimitives.decimalGroups(binary) }

    private static func entry(_ name: String, text: String, _ expected: HandoffError) throws -> JSONValue {
        try VectorSupport.expectError(expected, "QR text \(name)") { () throws(HandoffError) in _ = try SessionPayload(text: text) }
        return .object(["name": .string(name), "text": .string(text), "error": .string(expected.identifier)])
    }

    private static func invalidTexts() throws -> [JSONValue] {
        let good = try seeded("invalid base", rendezvousLength: 6).payload  // 77 bytes: 11 full groups
        let binary = good.binary
        let digits = String(good.text.dropFirst(3))
        var out: [JSONValue] = []
        func add(_ name: String, _ text: String, _ error: HandoffError) throws { out.append(try entry(name, text: text, error)) }

        // Step 1: length.
        let longest = try seeded("invalid longest", rendezvousLength: 32).payload.text
        guard longest.utf8.count == 254 else { throw VectorGenerationError("largest QR text is not 254 bytes") }
        try add("255 characters: the largest valid text (254) plus one digit", longest + "0", .malformed(.length))
        try add("255 characters of zeros", "AH:" + String(repeating: "0", count: 252), .malformed(.length))
        try add("255 UTF-8 bytes in 129 characters", "AH:" + String(repeating: "\u{e9}", count: 126), .malformed(.length))
        try add("255 bytes without the prefix (length is checked before the magic)", String(repeating: "0", count: 255), .malformed(.length))
        try add("256 bytes with a non-canonical first group (step 1 before step 5)",
                "AH:99999999999999999" + String(repeating: "0", count: 236), .malformed(.length))
        // Step 2: magic.
        try add("empty text", "", .badMagic)
        try add("lowercase prefix", "ah:" + digits, .badMagic)
        try add("no colon", "AH" + digits, .badMagic)
        try add("other scheme", "FIDO:/" + digits, .badMagic)
        try add("leading space", " " + good.text, .badMagic)
        try add("254 bytes with a bad prefix", "XH:" + String(repeating: "0", count: 251), .badMagic)
        // Steps 3-4: digits.
        try add("letter among digits", "AH:" + digits.prefix(20) + "A" + digits.dropFirst(21), .malformed(.digits))
        try add("trailing space", good.text + " ", .malformed(.digits))
        try add("trailing newline", good.text + "\n", .malformed(.digits))
        try add("Arabic-Indic digits", "AH:" + String(repeating: "\u{661}", count: 17), .malformed(.digits))
        try add("a letter after a non-canonical group (step 3 before step 5)", "AH:99999999999999999" + "A" + String(digits.dropFirst(18)),
                .malformed(.digits))
        try add("one digit (no byte count gives 1)", "AH:1", .malformed(.digits))
        try add("18 digits (17 + 1)", "AH:" + String(repeating: "0", count: 18), .malformed(.digits))
        try add("one digit missing (11 x 17 - 1 digits)", String(good.text.dropLast()), .malformed(.digits))
        try add("one digit extra (11 x 17 + 1 digits)", good.text + "0", .malformed(.digits))
        try add("non-canonical group and a bad digit count (step 4 before step 5)", "AH:99999999999999999" + "00",
                .malformed(.digits))
        // Step 5: canonical groups.
        try add("full group value 2^56", "AH:72057594037927936" + digits.dropFirst(17), .nonCanonicalEncoding)
        try add("full group 17 nines", "AH:99999999999999999" + digits.dropFirst(17), .nonCanonicalEncoding)
        try add("1-byte tail group 256", "AH:" + digits.prefix(17 * 10) + "00000000000000000" + "256", .nonCanonicalEncoding)
        for (count, value) in [(2, "65536"), (3, "16777216"), (4, "4294967296"), (5, "1099511627776"), (6, "281474976710656")] {
            try add("\(count)-byte tail group \(value) (256^\(count))", "AH:" + digits.prefix(17 * 10) + String(digits.dropFirst(170).prefix(17)) + value,
                    .nonCanonicalEncoding)
        }
        try add("non-canonical last group beats a bad version", "AH:" + "72057594037927935" + "99999", .nonCanonicalEncoding)
        // Step 6: the binary steps, through the text.
        try add("empty digits (B2)", "AH:", .malformed(.version))
        try add("version 1 (B3)", text(VectorSupport.patched(binary, 0, 1)), .unsupportedVersion(1))
        try add("version 2 (B3): a version-2 payload", text(VectorSupport.patched(binary, 0, 2)), .unsupportedVersion(2))
        try add("version 3 (B3): a version-3 payload", text(VectorSupport.patched(binary, 0, 3)), .unsupportedVersion(3))
        try add("version 5 (B3)", text(VectorSupport.patched(binary, 0, 5)), .unsupportedVersion(5))
        try add("only a version byte (B4)", text([SessionPayload.currentVersion]), .malformed(.intent))
        try add("intent 2 (B5)", text(VectorSupport.patched(binary, 1, 2)), .wrongIntent(2))
        try add("truncated in expiry (B6)", text(Array(binary.prefix(5))), .malformed(.expiry))
        try add("truncated in commitment (B7)", text(Array(binary.prefix(30))), .malformed(.commitment))
        try add("truncated in public key (B8)", text(Array(binary.prefix(60))), .malformed(.publicKey))
        try add("missing rendezvous length (B9)", text(Array(binary.prefix(70))), .malformed(.rendezvous))
        try add("rendezvous length 33 (B10)", text(Array(binary.prefix(70)) + [33] + [UInt8](repeating: 7, count: 20)), .rendezvousTooLong(33))
        try add("truncated rendezvous (B11)", text(Array(binary.prefix(74))), .malformed(.rendezvous))
        try add("one trailing byte (B12)", text(binary + [0]), .malformed(.trailingBytes))
        return out
    }

    private static func invalidBinaries() throws -> [JSONValue] {
        let seeded = try seeded("invalid base", rendezvousLength: 32)
        let good = seeded.payload.binary  // 103 bytes
        let short = try PayloadVectors.seeded("invalid base", rendezvousLength: 8).payload.binary  // 79 bytes
        let cases: [(String, [UInt8], HandoffError)] = [
            ("104 bytes: the largest payload plus one byte (B1)", good + [0], .malformed(.length)),
            ("104 bytes with version 1 (B1 before B3)", VectorSupport.patched(good + [0], 0, 1), .malformed(.length)),
            ("104 bytes with intent 2 (B1 before B5)", VectorSupport.patched(good + [0], 1, 2), .malformed(.length)),
            ("104 bytes with rendezvous length 255 (B1 before B10 and B11)", VectorSupport.patched(good + [0], 70, 255),
             .malformed(.length)),
            ("empty (B2)", [], .malformed(.version)),
            ("version 1: a version-1 payload (B3)", VectorSupport.patched(short, 0, 1), .unsupportedVersion(1)),
            ("version 0 (B3)", VectorSupport.patched(short, 0, 0), .unsupportedVersion(0)),
            ("version 255 (B3)", VectorSupport.patched(short, 0, 255), .unsupportedVersion(255)),
            ("version 1 alone (B3 before B4)", [1], .unsupportedVersion(1)),
            ("version only (B4)", [SessionPayload.currentVersion], .malformed(.intent)),
            ("version 2 alone: a version-2 payload's first byte (B3 before B4)", [2], .unsupportedVersion(2)),
            ("version 3: a version-3 payload (B3)", VectorSupport.patched(short, 0, 3), .unsupportedVersion(3)),
            ("version 3 alone: a version-3 payload's first byte (B3 before B4)", [3], .unsupportedVersion(3)),
            ("intent 0 (B5)", VectorSupport.patched(short, 1, 0), .wrongIntent(0)),
            ("intent 2 (B5)", VectorSupport.patched(short, 1, 2), .wrongIntent(2)),
            ("intent 2 in a 2-byte payload (B5 before B6)", [SessionPayload.currentVersion, 2], .wrongIntent(2)),
            ("5 bytes: truncated in expiry (B6)", Array(short.prefix(5)), .malformed(.expiry)),
            ("6 bytes: expiry, no commitment (B7)", Array(short.prefix(6)), .malformed(.commitment)),
            ("37 bytes: truncated in commitment (B7)", Array(short.prefix(37)), .malformed(.commitment)),
            ("38 bytes: commitment, no public key (B8)", Array(short.prefix(38)), .malformed(.publicKey)),
            ("69 bytes: truncated in public key (B8)", Array(short.prefix(69)), .malformed(.publicKey)),
            ("70 bytes: no rendezvous length (B9)", Array(short.prefix(70)), .malformed(.rendezvous)),
            ("rendezvous length 33 with 32 bytes present (B10)", VectorSupport.patched(good, 70, 33), .rendezvousTooLong(33)),
            ("rendezvous length 255, nothing after it (B10 before B11)", Array(short.prefix(70)) + [255], .rendezvousTooLong(255)),
            ("rendezvous length 8 with 7 bytes present (B11)", Array(short.dropLast()), .malformed(.rendezvous)),
            ("one trailing byte after an 8-byte rendezvous (B12)", short + [0], .malformed(.trailingBytes)),
            ("rendezvous length 0 followed by 8 bytes (B12)", VectorSupport.patched(short, 70, 0), .malformed(.trailingBytes)),
        ]
        return try cases.map { name, bytes, expected in
            try VectorSupport.expectError(expected, "binary \(name)") { () throws(HandoffError) in _ = try SessionPayload(binary: bytes) }
            return .object(["name": .string(name), "binary": .hex(bytes), "length": .number(bytes.count), "error": .string(expected.identifier)])
        }
    }
}
