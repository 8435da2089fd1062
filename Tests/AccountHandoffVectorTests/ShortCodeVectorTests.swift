import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// Replays `Vectors/short-code.json` against the real short-code mapping.
@Suite struct ShortCodeVectorTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("short-code.json") }

    private func checkCode(_ material: [UInt8], _ entry: [String: Any]) throws {
        if entry["acceptedIndex"] is NSNull {
            #expect(VectorPrimitives.shortCode(material: material) == nil, "\(entry.name)")
            #expect(VectorPrimitives.acceptedCandidateIndex(material: material) == nil, "\(entry.name)")
            #expect(try entry.string("error") == "keyDerivationFailed")
            return
        }
        let code = try #require(VectorPrimitives.shortCode(material: material))
        let expected = try entry.object("code")
        #expect(try VectorPrimitives.acceptedCandidateIndex(material: material) == Int(entry.int("acceptedIndex")), "\(entry.name)")
        #expect(try code.value == UInt32(expected.int("value")) && code.digits == expected.string("digits"), "\(entry.name)")
        #expect(try code.grouped == expected.string("grouped") && code.spoken == expected.string("spoken"), "\(entry.name)")
    }

    @Test func materialToCode() throws {
        #expect(try UInt32(vectors.int("rejectionBound")) == VectorPrimitives.shortCodeRejectionBound)
        let derivations = try vectors.objects("derivations")
        for entry in derivations {
            let material = try entry.bytes("material")
            let candidates = (0..<16).map { index in material[index * 4..<index * 4 + 4].reduce(Int64(0)) { $0 << 8 | Int64($1) } }
            #expect(candidates == (entry["candidates"] as? [NSNumber])?.map(\.int64Value), "\(entry.name)")
            try checkCode(material, entry)
        }
        #expect(derivations.contains { $0["acceptedIndex"] is NSNull })
    }

    @Test func codeDerivationFromCodeKeyNonceAndTH1() throws {
        let derivations = try vectors.objects("codeDerivations")
        #expect(derivations.count >= 5)
        for entry in derivations {
            let prk = VectorPrimitives.hkdfExtract(salt: try entry.bytes("th1"), inputKeyMaterial: [try entry.bytes("codeKey"), try entry.bytes("nonce")])
            #expect(try prk == entry.bytes("codePRK"), "\(entry.name)")
            let material = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: Array("AH4 code".utf8), length: 64)
            #expect(try material == entry.bytes("codeMaterial"), "\(entry.name)")
            try checkCode(material, entry)
        }
        #expect(try derivations.contains { try $0.int("acceptedIndex") > 0 })
    }

    @Test func typedComparison() throws {
        for entry in try vectors.objects("typed") {
            let digits = try entry.string("code")
            let value = UInt32(digits)!
            let code = try #require(VectorPrimitives.shortCode(material: [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                                                                         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
                                                                + [UInt8](repeating: 0, count: 60)))
            #expect(code.digits == digits)
            let typed = try entry.string("typed")
            #expect(code.matches(typed: typed) == (entry["matches"] as? Bool), "\(typed)")
            let result = !ShortCode.isEntry(typed) ? "malformed.typedCode" : code.matches(typed: typed) ? "match" : "mismatch"
            #expect(result == (try entry.string("result")), "\(typed)")
        }
    }
}
