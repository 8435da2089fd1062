import AccountHandoff
import AccountHandoffTestSupport

/// `short-code.json`: code material to candidates, the accepted index and every form of the
/// code, including rejected candidates and exhaustion; the version-2 code derivation from
/// `codeKey`, the nonce and `TH1`; typed-code comparisons (Spec 4.4).
enum ShortCodeVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Short code (Spec 4.4): 64 bytes of code material, 16 big-endian u32 candidates, the first below the rejection bound mod 10^6. 'acceptedIndex' is null and 'error' is set when every candidate is rejected. 'codeDerivations' derive the material from codeKey, nonce and TH1. 'typed' lists typed-code comparisons: 'result' is match, mismatch (an entry that differs: a try is used) or malformed.typedCode (no entry: no try is used)."),
            "rejectionBound": .number(VectorPrimitives.shortCodeRejectionBound),
            "derivations": .array(try derivations()),
            "codeDerivations": .array(try codeDerivations()),
            "typed": .array(try typed()),
        ])
    }

    private static func material(_ name: String, prefix: [UInt32]) -> [UInt8] {
        let head = prefix.flatMap(VectorSupport.bigEndian)
        return head + VectorSupport.bytes(seed: VectorSupport.seed("code/" + name), count: 64 - head.count)
    }

    private static func derivations() throws -> [JSONValue] {
        let bound = VectorPrimitives.shortCodeRejectionBound
        var cases: [(String, [UInt8])] = (1...4).map { ("seeded material \($0)", material("seeded \($0)", prefix: [])) }
        cases += [
            ("candidate 0 gives 000000", material("zero", prefix: [0])),
            ("bound - 1 is accepted (999999)", material("bound-1", prefix: [bound - 1])),
            ("leading zeros: 1000042 gives 000042", material("lead", prefix: [1_000_042])),
            ("first candidate = bound is rejected", material("bound", prefix: [bound, 123_456_789])),
            ("first candidate 2^32 - 1 is rejected", material("max", prefix: [UInt32.max, 7])),
            ("first 15 rejected, last accepted", material("fifteen", prefix: Array(repeating: bound, count: 15) + [4_293_999_999])),
            ("all 16 rejected", material("all", prefix: (0..<16).map { bound + UInt32($0) * 1000 })),
        ]
        return try cases.map { name, material in
            let candidates = (0..<16).map { index in material[index * 4..<index * 4 + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            var entry: [String: JSONValue] = ["name": .string(name), "material": .hex(material),
                                              "candidates": .array(candidates.map { .number($0) })]
            if let index = VectorPrimitives.acceptedCandidateIndex(material: material) {
                guard let code = VectorPrimitives.shortCode(material: material), code.value == candidates[index] % 1_000_000 else {
                    throw VectorGenerationError("short code \(name) inconsistent")
                }
                entry["acceptedIndex"] = .number(index)
                entry["code"] = VectorSupport.shortCode(code)
            } else {
                guard VectorPrimitives.shortCode(material: material) == nil else { throw VectorGenerationError("short code \(name) accepted") }
                entry["acceptedIndex"] = .null
                entry["error"] = .string(HandoffError.keyDerivationFailed.identifier)
            }
            return .object(entry)
        }
    }

    /// `codePRK = HKDF-Extract(TH1, codeKey | nonce)`, `codeMaterial = HKDF-Expand(codePRK, "AH4 code", 64)`.
    static func codeMaterial(codeKey: [UInt8], nonce: [UInt8], th1: [UInt8]) throws -> (prk: [UInt8], material: [UInt8]) {
        let prk = VectorPrimitives.hkdfExtract(salt: th1, inputKeyMaterial: [codeKey, nonce])
        return (prk, try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii("AH4 code"), length: 64))
    }

    /// The first seeded derivation whose first candidate is rejected (found once by search;
    /// the generator checks it still is).
    static let firstRejectingDerivation = 6061

    private static func codeDerivations() throws -> [JSONValue] {
        try ([0, 1, 2, 3, firstRejectingDerivation]).map { index in
            let name = "code derivation \(index)"
            let codeKey = VectorSupport.bytes(seed: VectorSupport.seed(name + "/codeKey"), count: 32)
            let nonce = VectorSupport.bytes(seed: VectorSupport.seed(name + "/nonce"), count: 32)
            let th1 = VectorSupport.bytes(seed: VectorSupport.seed(name + "/th1"), count: 32)
            let (prk, material) = try codeMaterial(codeKey: codeKey, nonce: nonce, th1: th1)
            guard let accepted = VectorPrimitives.acceptedCandidateIndex(material: material),
                  let code = VectorPrimitives.shortCode(material: material) else { throw VectorGenerationError("\(name) exhausted") }
            let rejecting = index == firstRejectingDerivation
            guard rejecting == (accepted > 0) else { throw VectorGenerationError("\(name): accepted index \(accepted)") }
            return .object(["name": .string(rejecting ? name + ": first candidate rejected" : name), "codeKey": .hex(codeKey),
                            "nonce": .hex(nonce), "th1": .hex(th1), "codePRK": .hex(prk), "codeMaterial": .hex(material),
                            "acceptedIndex": .number(accepted), "code": VectorSupport.shortCode(code)])
        }
    }

    private static func typed() throws -> [JSONValue] {
        let material = material("typed", prefix: [4_200_048_291])
        guard let code = VectorPrimitives.shortCode(material: material), code.digits == "048291" else {
            throw VectorGenerationError("typed-code material")
        }
        let attempts: [(String, Bool)] = [
            ("048291", true), ("048 291", true), (" 048 291 ", true), ("0 4 8 2 9 1", true), ("048  291", true),
            ("48291", false), ("048 29", false), ("048292", false), ("0482910", false), ("048 292", false), ("048-291", false), ("048\t291", false),
            ("", false), ("\u{660}48291", false), ("048291\n", false),
        ]
        return try attempts.map { typedText, expected in
            // The computed answer must equal what Spec 4.4 says.
            guard code.matches(typed: typedText) == expected else { throw VectorGenerationError("typed code \(typedText)") }
            let result = !ShortCode.isEntry(typedText) ? HandoffError.malformed(.typedCode).identifier : expected ? "match" : "mismatch"
            return .object(["code": .string(code.digits), "typed": .string(typedText), "matches": .bool(expected),
                            "result": .string(result)])
        }
    }
}
