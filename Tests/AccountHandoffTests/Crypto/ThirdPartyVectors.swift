import Foundation

/// Reads the third-party conformance vectors (Wycheproof, cacophony, RFC 9180), vendored
/// unchanged with their licences and provenance under `Tests/Test Vectors/` (see its README),
/// and decodes them with Codable. Every clone has them, so no vector test is ever skipped: a
/// missing or malformed file fails the test that reads it.
enum ThirdPartyVectors {
    /// The vendored vector directory, found from this file's own path
    /// (`<root>/Tests/AccountHandoffTests/Crypto/ThirdPartyVectors.swift`).
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Test Vectors", isDirectory: true)

    /// Decodes `fileName` from ``directory`` (snake_case keys map to camelCase properties).
    static func load<Vectors: Decodable>(_ fileName: String, as type: Vectors.Type = Vectors.self) throws -> Vectors {
        let data = try Data(contentsOf: directory.appendingPathComponent(fileName))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Vectors.self, from: data)
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
