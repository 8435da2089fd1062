/// The CPace draft's length-value encodings (Spec 12.6): `prepend_len` writes a byte string's
/// length in LEB128 before it, and `lv_cat` concatenates byte strings, each with its length
/// prepended. They are what makes the hashed inputs of CPace unambiguous.
package enum LengthValue {
    /// LEB128 of `count`: seven bits a byte, least significant first, bit 7 set on every byte
    /// but the last (`0` is one zero byte, `127` is `7f`, `128` is `80 01`).
    package static func length(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "negative length")
        var rest = UInt(count)
        var encoded: [UInt8] = []
        repeat {
            let low = UInt8(rest & 0x7f)
            rest >>= 7
            encoded.append(rest == 0 ? low : low | 0x80)
        } while rest != 0
        return encoded
    }

    /// `prepend_len(bytes)`: the LEB128 length of `bytes`, then `bytes`.
    package static func prepended(_ bytes: [UInt8]) -> [UInt8] {
        length(bytes.count) + bytes
    }

    /// `lv_cat(parts...)`: every part with its length prepended, in order.
    package static func concatenated(_ parts: [[UInt8]]) -> [UInt8] {
        parts.flatMap(prepended)
    }
}
