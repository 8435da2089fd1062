import AccountHandoffTestSupport
@_spi(Vectors) import AccountHandoff

/// Small helpers shared by the vector generators.
enum VectorSupport {
    /// `count` bytes of the deterministic test stream for `seed` (Vectors/README.md, "Randomness").
    static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        let random = InsecureDeterministicRandom(seed: seed)
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { random.fill($0) }
        return result
    }

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

    /// The JSON form of account metadata (Vectors/README.md, "Account").
    static func account(_ account: AccountMetadata) -> JSONValue {
        .object([
            "linkID": .hex(account.linkID.bytes),
            "displayName": .string(account.displayName),
            "emailAddress": .string(account.emailAddress),
            "username": .string(account.username),
            "imapHost": .string(account.imapHost),
            "imapPort": .number(account.imapPort),
            "imapSecurity": .string(account.imapSecurity == .tls ? "tls" : "startTLS"),
        ])
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
}

/// A failed self-check while generating vectors: the generator refuses to write inconsistent data.
public struct VectorGenerationError: Error, CustomStringConvertible {
    /// What did not match.
    public let description: String

    init(_ description: String) { self.description = description }
}
