import Foundation
import Testing

/// The third-party conformance vectors (Wycheproof, cacophony, RFC 9180) committed under
/// `Tests/AccountHandoffTests/ThirdPartyVectors/` with their licences, decoded with Codable.
///
/// They are read in place, by a path relative to this source file, as swift-crypto reads its
/// Wycheproof files and as `VectorFiles` reads `Vectors/`: nothing is copied into the build
/// folder, so `swift test --skip-build` reads exactly the committed bytes, and a missing or
/// unreadable file throws in the test that needs it (a resource bundle that is not found
/// stops the whole test process instead). There is no fallback and no skip: a vector test
/// that cannot read its file fails.
enum ThirdPartyVectors {
    /// The committed folder, `Tests/AccountHandoffTests/ThirdPartyVectors/`.
    static let directory = URL(fileURLWithPath: #filePath)  // …/Tests/AccountHandoffTests/Crypto/ThirdPartyVectors.swift
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ThirdPartyVectors", isDirectory: true)

    /// The vector files the runners read, each with the SHA-256 of its committed bytes (as the
    /// folder's README lists them).
    static let files: [String: String] = [
        "x25519_test.json": "35c3f5231cf25cc640b524d403461deee9e49441d5d915a3a25b2c8ff5adbe7d",
        "chacha20_poly1305_test.json": "fe61d25f90e1bde4461d00eafe61049e5f29bd999f36b766df9cda90906ad53d",
        "hkdf_sha256_test.json": "bb2b462a38b251cb52a2aede706d6d4b62b26864f4e80c95497507ddb07c5f1e",
        "noise_cacophony_25519_ChaChaPoly_SHA256.json": "20cf0765455d3df7165e5cd6f6ce1de345511eacc6dd8f47f2089e2111756d6e",
        "hpke_rfc9180_x25519_sha256_chacha20poly1305.json": "5337a8dc11009293d5d35ae63afb5d636cca8ee193ad8c01870b4c35dd303d08",
    ]

    /// The licence files that must travel with the vectors.
    static let licences = ["LICENSE-wycheproof", "LICENSE-cacophony", "LICENSE-circl", "LICENSE-hpke-draft.md"]

    /// A vector file that could not be read; the test that needed it fails with this.
    struct Unreadable: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot read the committed vector file \(path): \(reason)" }
    }

    /// The bytes of `fileName` in ``directory``.
    static func bytes(_ fileName: String) throws -> Data {
        let url = directory.appendingPathComponent(fileName)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw Unreadable(path: url.path, reason: "\(error)")
        }
    }

    /// Decodes `fileName` from ``directory`` (snake_case keys map to camelCase properties).
    static func load<Vectors: Decodable>(_ fileName: String, as type: Vectors.Type = Vectors.self) throws -> Vectors {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Vectors.self, from: bytes(fileName))
    }
}

/// Bytes written as a hex string in a vector file; anything but hex fails decoding.
struct HexBytes: Decodable, Sendable {
    /// The decoded bytes.
    let bytes: [UInt8]

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        bytes = try Hex.decode(text)
    }
}

/// A Wycheproof file: `testGroups[].tests[]`, with group parameters this project does not need.
struct WycheproofFile<Case: Decodable>: Decodable {
    /// A group of cases sharing parameters.
    struct Group: Decodable {
        let tests: [Case]
    }

    let algorithm: String
    let numberOfTests: Int
    let testGroups: [Group]

    /// Every case of every group, in file order.
    var cases: [Case] { testGroups.flatMap(\.tests) }
}

/// Wycheproof's verdict on a case; an unknown verdict fails decoding.
enum WycheproofResult: String, Decodable, Sendable {
    case valid, acceptable, invalid
}
