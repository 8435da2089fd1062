import Foundation

/// The CPace draft's vectors, vendored unchanged under `Tests/Test Vectors/cpace/` (see its
/// README for upstream, commit and licence), so every clone runs them.
enum CPaceDraftVectors {
    /// `Tests/Test Vectors/cpace/`, found from this file's path.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Test Vectors/cpace", isDirectory: true)

    /// A vendored file is missing or not shaped as upstream publishes it.
    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    /// One group of `cpace_testvectors.json` (`G_Coffee25519`, `G_Coffee25519_points`, ...).
    static func group(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("cpace_testvectors.json"))
        guard let file = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let group = file[name] as? [String: Any] else { throw FormatError(description: "no group \(name)") }
        return group
    }

    /// Every `~~~ test-vectors` block of the vendored draft, decoded: each is a JSON object
    /// written in base64 on lines that start with `#`. `after` keeps only the blocks that follow
    /// the first line containing that text.
    static func draftBlocks(after heading: String? = nil) throws -> [[String: Any]] {
        let text = try String(contentsOf: directory.appendingPathComponent("draft-irtf-cfrg-cpace.md"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")[...]
        if let heading {
            guard let start = lines.firstIndex(where: { $0.contains(heading) }) else { throw FormatError(description: "no heading \(heading)") }
            lines = lines[start...]
        }
        var blocks: [[String: Any]] = []
        var encoded: String?
        for line in lines {
            if line.hasPrefix("~~~ test-vectors") {
                encoded = ""
            } else if line.hasPrefix("~~~"), let base64 = encoded {
                guard let data = Data(base64Encoded: base64),
                      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw FormatError(description: "a test-vectors block is not base64 JSON")
                }
                blocks.append(object)
                encoded = nil
            } else if encoded != nil {
                encoded! += line.trimmingCharacters(in: .whitespaces).drop { $0 == "#" }
            }
        }
        return blocks
    }

    /// The first block of the draft that has `key`.
    static func draftBlock(containing key: String, after heading: String? = nil) throws -> [String: Any] {
        guard let block = try draftBlocks(after: heading).first(where: { $0[key] != nil }) else {
            throw FormatError(description: "no test-vectors block with \(key)")
        }
        return block
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The bytes of a hex field of a CPace vector (upper- or lowercase).
    func cpaceHex(_ key: String) throws -> [UInt8] {
        guard let text = self[key] as? String else { throw CPaceDraftVectors.FormatError(description: "no field \(key)") }
        return try Hex.decode(text)
    }
}
