import AccountHandoff
import Foundation
import Testing

/// Locating and loading the committed `Vectors/` files.
enum VectorFiles {
    /// The repository root, found from this file's path (`Tests/AccountHandoffVectorTests/`).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed vectors folder.
    static let directory = repositoryRoot.appendingPathComponent("Vectors")

    /// Every vector file the generator writes.
    static let names = ["primitives.json", "qr-payload.json", "frames.json", "plaintexts.json", "short-code.json", "sessions.json", "registries.json", "transport.json", "typed-code.json", "discovery.json"]

    /// The parsed JSON object of one committed file.
    static func load(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw VectorFormatError("\(name) is not a JSON object")
        }
        return object
    }
}

/// A vector file that does not have the documented shape.
struct VectorFormatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Typed access to the untyped JSON values of a vector entry.
extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) throws -> String {
        guard let value = self[key] as? String else { throw VectorFormatError("missing string \(key)") }
        return value
    }

    func bytes(_ key: String) throws -> [UInt8] {
        guard let value = self[key] as? String, let bytes = hexBytes(value) else { throw VectorFormatError("missing hex \(key)") }
        return bytes
    }

    func int(_ key: String) throws -> Int64 {
        guard let value = self[key] as? NSNumber else { throw VectorFormatError("missing number \(key)") }
        return value.int64Value
    }

    /// A time (Vectors/README.md, "Times"): a number, or `nan`, `+infinity`, `-infinity`.
    func time(_ key: String) throws -> Double {
        switch self[key] {
        case let value as NSNumber: return value.doubleValue
        case "nan" as String: return .nan
        case "+infinity" as String: return .infinity
        case "-infinity" as String: return -.infinity
        default: throw VectorFormatError("missing time \(key)")
        }
    }

    /// A time or `null`.
    func optionalTime(_ key: String) throws -> Double? {
        self[key] is NSNull ? nil : try time(key)
    }

    /// A `Date` for a time field.
    func date(_ key: String) throws -> Date { Date(timeIntervalSince1970: try time(key)) }

    func object(_ key: String) throws -> [String: Any] {
        guard let value = self[key] as? [String: Any] else { throw VectorFormatError("missing object \(key)") }
        return value
    }

    func objects(_ key: String) throws -> [[String: Any]] {
        guard let value = self[key] as? [[String: Any]] else { throw VectorFormatError("missing array \(key)") }
        return value
    }
}

/// The error identifier `body` throws, or `"ok"`.
func identifier(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "ok"
    } catch let error as HandoffError {
        return error.identifier
    } catch {
        return "unexpected \(error)"
    }
}

/// A ``RegistryStorage`` in memory that starts with chosen records.
final class MemoryStorage: RegistryStorage, @unchecked Sendable {
    // Safety of @unchecked Sendable: each test uses its storage from one task only.
    private var records: [RegistryRecord]

    init(_ records: [RegistryRecord] = []) { self.records = records }

    func load() throws(RegistryStorageFailure) -> [RegistryRecord] { records }

    func save(_ records: [RegistryRecord]) throws(RegistryStorageFailure) { self.records = records }
}

/// Lowercase or uppercase hex to bytes; `nil` for anything else.
func hexBytes(_ text: String) -> [UInt8]? { Hex.decode(text) }

/// `value` as 4 big-endian bytes.
func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
}

/// Bytes to lowercase hex.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

extension Dictionary where Key == String, Value == Any {
    /// The entry's `name`, for failure messages.
    var name: String { self["name"] as? String ?? "?" }
}

