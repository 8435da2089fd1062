@testable import AccountHandoff

/// Hex helpers for the crypto tests. Decoding is strict: anything that is not an even
/// number of hex digits is a broken test input, so decoding throws `Hex.Invalid` and the test fails.
enum Hex {
    /// A string that is not valid hex.
    struct Invalid: Error, CustomStringConvertible {
        /// The rejected text (test data, never a secret of the app).
        let text: String
        var description: String { "not valid hex: \(text.prefix(40))" }
    }

    /// Decodes lowercase or uppercase hex; whitespace and `:` separators are ignored.
    static func decode(_ text: String) throws -> [UInt8] {
        let digits = text.unicodeScalars.filter { !" \n\t:".unicodeScalars.contains($0) }
        guard digits.count % 2 == 0 else { throw Invalid(text: text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for scalar in digits {
            guard let nibble = UInt8(String(scalar), radix: 16) else { throw Invalid(text: text) }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    /// Lowercase hex of `bytes`.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16)
            return byte < 0x10 ? "0" + text : text
        }.joined()
    }
}

extension Array where Element == UInt8 {
    /// Bytes from a hex literal written in a test; a typo in a literal fails the test.
    init(hex: String) throws { self = try Hex.decode(hex) }
}

extension SecretBytes {
    /// A secret holding the bytes of a hex literal (test keys only).
    convenience init(hex: String) throws { try self.init(copying: try Hex.decode(hex)) }

    /// The secret's bytes as lowercase hex, for comparing against published vectors.
    var revealedHex: String { Hex.encode(revealedBytes()) }
}
