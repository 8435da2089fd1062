import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// Small helpers shared by the vector generators.
enum VectorSupport {
    /// The fixed start of every session unless a vector says otherwise (2027-01-15T08:00:00Z).
    static let startTime: Double = 1_800_000_000

    /// `count` bytes of the deterministic test stream for `seed` (Vectors/README.md, "Randomness").
    static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        let random = InsecureDeterministicRandom(seed: seed)
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { random.fill($0) }
        return result
    }

    /// One request of `count` bytes from `random` (a request never shares a block with the next).
    static func draw(_ count: Int, from random: RandomSource) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { random.fill($0) }
        return result
    }

    /// What a sender with `seed` draws (Spec 2.1): the nonce, then the private key.
    static func senderDraws(seed: UInt64) -> (nonce: [UInt8], privateKey: [UInt8]) {
        let stream = bytes(seed: seed, count: 64)
        return (Array(stream[0..<32]), Array(stream[32..<64]))
    }

    /// What a receiver with `seed` draws at S5: its private key.
    static func receiverPrivateKey(seed: UInt64) -> [UInt8] { bytes(seed: seed, count: 32) }

    /// A stable 64-bit seed for a name (FNV-1a), so adding a vector does not change the others.
    static func seed(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash & 0x001f_ffff_ffff_ffff  // exact in every JSON reader (below 2^53)
    }

    /// Bytes from lowercase hex literal text; traps on a typo, which a test run shows at once.
    static func hex(_ text: String) -> [UInt8] {
        guard let bytes = Hex.decode(text) else { preconditionFailure("bad hex literal in generator") }
        return bytes
    }

    /// The ASCII bytes of a label.
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// `value` as 4 big-endian bytes.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value)]
    }

    /// A `Date` for Unix seconds.
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// A JSON time for an optional deadline (`null` when there is none).
    static func deadline(_ date: Date?) -> JSONValue { date.map { .time($0.timeIntervalSince1970) } ?? .null }

    /// The JSON form of account metadata (Vectors/README.md, "Account").
    static func account(_ account: AccountMetadata) -> JSONValue {
        accountFields(linkID: account.linkID.bytes, displayName: account.displayName, email: account.emailAddress,
                      username: account.username, host: account.imapHost, port: account.imapPort,
                      security: account.imapSecurity)
    }

    /// The JSON form of account fields, valid or not.
    static func accountFields(linkID: [UInt8], displayName: String, email: String, username: String, host: String,
                              port: UInt16, security: IMAPSecurity) -> JSONValue {
        .object([
            "linkID": .hex(linkID), "displayName": .string(displayName), "emailAddress": .string(email),
            "username": .string(username), "imapHost": .string(host), "imapPort": .number(port),
            "imapSecurity": .string(security == .tls ? "tls" : "startTLS"),
        ])
    }

    /// The account every session and registry script offers unless it says otherwise.
    static func standardAccount(_ name: String) throws -> AccountMetadata {
        try AccountMetadata(linkID: AccountLinkID(bytes: bytes(seed: seed(name + "/link"), count: 16))!,
                            displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
                            imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }

    /// The JSON form of a short code: value, digits, grouped and spoken.
    static func shortCode(_ code: ShortCode) -> JSONValue {
        .object(["value": .number(code.value), "digits": .string(code.digits),
                 "grouped": .string(code.grouped), "spoken": .string(code.spoken)])
    }

    /// Bit-flips byte `index` of `bytes` with `mask`.
    static func flip(_ bytes: [UInt8], at index: Int, mask: UInt8 = 0x01) -> [UInt8] {
        var copy = bytes
        copy[index] ^= mask
        return copy
    }

    /// `bytes` with byte `index` set to `value`.
    static func patched(_ bytes: [UInt8], _ index: Int, _ value: UInt8) -> [UInt8] {
        var copy = bytes
        copy[index] = value
        return copy
    }

    /// Runs `body`, which must throw exactly `expected`; the generator refuses to record a
    /// vector whose claimed error the real code does not produce.
    static func expectError(_ expected: HandoffError, _ what: String, _ body: () throws(HandoffError) -> Void) throws {
        do {
            try body()
        } catch {
            guard error == expected else { throw VectorGenerationError("\(what): got \(error.identifier), meant \(expected.identifier)") }
            return
        }
        throw VectorGenerationError("\(what): accepted, meant \(expected.identifier)")
    }

    /// The identifier `body` throws, or `nil` when it succeeds.
    static func thrownIdentifier(_ body: () throws(HandoffError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.identifier
        }
    }
}

/// A failed self-check while generating vectors: the generator refuses to write inconsistent data.
public struct VectorGenerationError: Error, CustomStringConvertible {
    /// What did not match.
    public let description: String

    init(_ description: String) { self.description = description }
}
