import Foundation
import Testing

/// Finds the third-party conformance vectors (Wycheproof, cacophony, RFC 9180) and decodes
/// them with Codable. They are not part of this repository (see their README and licences);
/// they are read from `$HANDOFF_THIRD_PARTY_VECTORS`, or else from
/// `../shared/third-party-vectors` next to the repository root.
///
/// Policy: when the variable is unset and the default directory does not exist, the vector
/// tests are skipped with ``skipComment`` (visible in the test output). When the variable is
/// set, or the directory exists, the tests run, and a missing or malformed file fails them.
enum ThirdPartyVectors {
    /// The environment variable that points at the vector directory.
    static let environmentVariable = "HANDOFF_THIRD_PARTY_VECTORS"

    private static var configuredPath: String? {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
        return path
    }

    /// The directory the vectors are read from.
    static var directory: URL {
        if let configuredPath { return URL(fileURLWithPath: configuredPath, isDirectory: true) }
        // This file is <root>/Tests/AccountHandoffTests/Crypto/ThirdPartyVectors.swift.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/third-party-vectors", isDirectory: true)
    }

    /// Whether the vector tests run (see the type's policy).
    static var areAvailable: Bool {
        configuredPath != nil || FileManager.default.fileExists(atPath: directory.path)
    }

    /// Why a vector test was skipped; shown by `swift test`.
    static var skipComment: Comment {
        Comment(rawValue: "SKIPPED: third-party vectors not found at \(directory.path); "
            + "set \(environmentVariable) to their directory to run them")
    }

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
