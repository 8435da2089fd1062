import AccountHandoffTestSupport
import Foundation
@_spi(Vectors) import AccountHandoff

/// `qr-payload.json`: field values to exact binary and text forms, invalid texts with their
/// error, and the receiver's scan-time checks (Spec section 2).
enum PayloadVectors {
    static let baseExpiry: UInt32 = 1_800_000_180

    static func make() throws -> JSONValue {
        .object([
            "description": .string("QR session payload (Spec 2): valid field values with exact binary and text forms; invalid texts and binaries with the error of the first failing check (Spec 2.4); scan-time checks (Spec 2.5)."),
            "valid": .array(try valid()),
            "invalidText": .array(try invalidTexts()),
            "invalidBinary": .array(try invalidBinaries()),
            "scanChecks": .array(try scanChecks()),
        ])
    }

    /// A payload with seeded fields.
    static func payload(_ name: String, expiry: UInt32 = baseExpiry, rendezvousLength: Int) throws -> SessionPayload {
        let seed = VectorSupport.seed("qr/" + name)
        let random = VectorSupport.bytes(seed: seed, count: 32 + 32 + rendezvousLength)
        let privateKey = Array(random[32..<64])
        return try VectorPrimitives.payload(transferID: Array(random[0..<16]), expiry: expiry, challenge: Array(random[16..<32]),
                                            senderPublicKey: VectorPrimitives.x25519PublicKey(privateKey: privateKey),
                                            rendezvous: Array(random[64...]))
    }

    static func fields(_ payload: SessionPayload) -> JSONValue {
        .object(["version": .number(payload.version), "intent": .number(payload.intent.rawValue),
                 "transferID": .hex(payload.transferID.bytes), "expiry": .number(payload.expiry),
                 "challenge": .hex(payload.challenge), "senderPublicKey": .hex(payload.senderPublicKey.bytes),
                 "rendezvous": .hex(payload.rendezvous.bytes)])
    }

    private static func valid() throws -> [JSONValue] {
        var cases: [(String, UInt32, Int)] = (0...6).map { ("rendezvous \($0) bytes", baseExpiry, $0) }
        cases += [("rendezvous 8 bytes (CLI loopback shape)", baseExpiry, 8), ("rendezvous 32 bytes (maximum)", baseExpiry, 32),
                  ("expiry 0", 0, 4), ("expiry 2^32 - 1", UInt32.max, 4), ("expiry 1", 1, 13)]
        return try cases.map { name, expiry, length in
            let payload = try payload(name, expiry: expiry, rendezvousLength: length)
            let decoded = try SessionPayload(text: payload.text)
            guard decoded == payload, try SessionPayload(binary: payload.binary) == payload else {
                throw VectorGenerationError("payload \(name) does not round-trip")
            }
            return .object(["name": .string(name), "fields": fields(payload), "binary": .hex(payload.binary),
                            "text": .string(payload.text), "textLength": .number(payload.text.utf8.count)])
        }
    }

    private static func check(_ name: String, text: String, expected: HandoffError) throws -> JSONValue {
        do {
            _ = try SessionPayload(text: text)
            throw VectorGenerationError("invalid QR text accepted: \(name)")
        } catch let error as HandoffError {
            guard error == expected else { throw VectorGenerationError("QR text \(name): got \(error.identifier), meant \(expected.identifier)") }
        }
        return .object(["name": .string(name), "text": .string(text), "error": .string(expected.identifier)])
    }

    private static func text(_ binary: [UInt8]) -> String { "AH:" + VectorPrimitives.decimalGroups(binary) }

    private static func invalidTexts() throws -> [JSONValue] {
        let good = try payload("invalid base", rendezvousLength: 6)  // 77 bytes: 11 full groups
        let binary = good.binary
        let digits = String(good.text.dropFirst(3))
        var out: [JSONValue] = []
        func add(_ name: String, _ text: String, _ error: HandoffError) throws { out.append(try check(name, text: text, expected: error)) }

        // Step 1: length.
        try add("255 characters", "AH:" + String(repeating: "0", count: 252), .malformed(.length))
        try add("255 UTF-8 bytes in 129 characters", "AH:" + String(repeating: "\u{e9}", count: 126), .malformed(.length))
        // Step 2: magic.
        try add("empty text", "", .badMagic)
        try add("lowercase prefix", "ah:" + digits, .badMagic)
        try add("no colon", "AH" + digits, .badMagic)
        try add("other scheme", "FIDO:/" + digits, .badMagic)
        try add("leading space", " " + good.text, .badMagic)
        // Steps 3-4: digits.
        try add("letter among digits", "AH:" + digits.prefix(20) + "A" + digits.dropFirst(21), .malformed(.digits))
        try add("trailing space", good.text + " ", .malformed(.digits))
        try add("trailing newline", good.text + "\n", .malformed(.digits))
        try add("Arabic-Indic digits", "AH:" + String(repeating: "\u{661}", count: 17), .malformed(.digits))
        try add("one digit (no byte count gives 1)", "AH:1", .malformed(.digits))
        try add("18 digits", "AH:" + String(repeating: "0", count: 18), .malformed(.digits))
        try add("one digit missing", String(good.text.dropLast()), .malformed(.digits))
        try add("one digit extra", good.text + "0", .malformed(.digits))
        // Step 5: canonical groups.
        try add("full group value 2^56", "AH:72057594037927936" + digits.dropFirst(17), .nonCanonicalEncoding)
        try add("full group 17 nines", "AH:99999999999999999" + digits.dropFirst(17), .nonCanonicalEncoding)
        try add("1-byte tail group 256", "AH:" + digits.prefix(17 * 10) + "00000000000000000" + "256", .nonCanonicalEncoding)
        try add("non-canonical last group beats a bad version", "AH:" + "72057594037927935" + "99999", .nonCanonicalEncoding)
        // Step 6: binary fields.
        try add("empty digits", "AH:", .malformed(.version))
        var wrongVersion = binary; wrongVersion[0] = 2
        try add("version 2", text(wrongVersion), .unsupportedVersion(2))
        var zeroVersion = binary; zeroVersion[0] = 0
        try add("version 0", text(zeroVersion), .unsupportedVersion(0))
        try add("only a version byte", text([1]), .malformed(.intent))
        var wrongIntent = binary; wrongIntent[1] = 2
        try add("intent 2", text(wrongIntent), .wrongIntent(2))
        var zeroIntent = binary; zeroIntent[1] = 0
        try add("intent 0", text(zeroIntent), .wrongIntent(0))
        try add("truncated in transfer ID", text(Array(binary.prefix(10))), .malformed(.transferID))
        try add("truncated in expiry", text(Array(binary.prefix(20))), .malformed(.expiry))
        try add("truncated in challenge", text(Array(binary.prefix(30))), .malformed(.challenge))
        try add("truncated in public key", text(Array(binary.prefix(60))), .malformed(.publicKey))
        try add("missing rendezvous length", text(Array(binary.prefix(70))), .malformed(.rendezvous))
        try add("truncated rendezvous", text(Array(binary.prefix(74))), .malformed(.rendezvous))
        try add("one trailing byte", text(binary + [0]), .malformed(.trailingBytes))
        var long33 = Array(binary.prefix(70)); long33.append(33)
        try add("rendezvous length 33", text(long33 + [UInt8](repeating: 7, count: 20)), .rendezvousTooLong(33))
        var long255 = Array(binary.prefix(70)); long255.append(255)
        try add("rendezvous length 255", text(long255), .rendezvousTooLong(255))
        return out
    }

    private static func invalidBinaries() throws -> [JSONValue] {
        let good = try payload("invalid base", rendezvousLength: 32).binary
        let cases: [(String, [UInt8], HandoffError)] = [
            ("104 bytes", good + [0], .malformed(.length)),
            ("empty", [], .malformed(.version)),
            ("version 255", [255] + good.dropFirst(), .unsupportedVersion(255)),
        ]
        return try cases.map { name, bytes, expected in
            do {
                _ = try SessionPayload(binary: bytes)
                throw VectorGenerationError("invalid binary accepted: \(name)")
            } catch let error as HandoffError {
                guard error == expected else { throw VectorGenerationError("binary \(name): \(error.identifier)") }
            }
            return .object(["name": .string(name), "binary": .hex(bytes), "error": .string(expected.identifier)])
        }
    }

    private static func scanChecks() throws -> [JSONValue] {
        let payload = try payload("scan", rendezvousLength: 8)
        let expiry = Int64(payload.expiry)
        var lowOrderFields = payload.binary
        for index in 38..<70 { lowOrderFields[index] = 0 }
        let lowOrder = try SessionPayload(binary: lowOrderFields)
        let cases: [(String, SessionPayload, Int64, UInt32, HandoffError?)] = [
            ("fresh QR", payload, expiry - 170, 30, nil),
            ("now = expiry + skew (still valid)", payload, expiry + 30, 30, nil),
            ("now = expiry + skew + 1", payload, expiry + 31, 30, .expired),
            ("skew 0, now = expiry (still valid)", payload, expiry, 0, nil),
            ("skew 0, now = expiry + 1", payload, expiry + 1, 0, .expired),
            ("skew 120, now = expiry + 120", payload, expiry + 120, 120, nil),
            ("expiry = now + 600 + skew (still valid)", payload, expiry - 630, 30, nil),
            ("expiry = now + 600 + skew + 1", payload, expiry - 631, 30, .expiryTooFar),
            ("receiver clock far behind", payload, expiry - 86_400, 30, .expiryTooFar),
            ("sender public key 0 (small order)", lowOrder, expiry - 170, 30, .lowOrderPublicKey),
        ]
        return try cases.map { name, payload, now, skew, expected in
            var result: JSONValue = .string("ok")
            do {
                _ = try HandoffReceiver.scan(payload: payload, configuration: ReceiverConfiguration(clockSkewTolerance: skew),
                                             random: InsecureDeterministicRandom(seed: VectorSupport.seed("scan/" + name)),
                                             now: Date(timeIntervalSince1970: TimeInterval(now)))
                guard expected == nil else { throw VectorGenerationError("scan \(name) accepted") }
            } catch let error as HandoffError {
                guard error == expected else { throw VectorGenerationError("scan \(name): \(error.identifier)") }
                result = .string(error.identifier)
            }
            return .object(["name": .string(name), "text": .string(payload.text), "now": .int(now), "skew": .number(skew),
                            "receiverSeed": .number(VectorSupport.seed("scan/" + name)), "result": result])
        }
    }
}
