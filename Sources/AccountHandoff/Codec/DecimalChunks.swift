/// The numeric text encoding of the QR payload (Spec 2.3): bytes in groups of 7, each group
/// read as a big-endian integer and written as exactly 17 decimal digits; a final partial
/// group of n bytes uses the fewest digits that can hold 256^n - 1.
///
/// QR numeric mode packs 3 digits into 10 bits, so this costs about 8.03 bits per byte.
package enum DecimalChunks {
    /// Digits used for a group of `index` bytes (index 0...7).
    static let digitsPerByteCount = [0, 3, 5, 8, 10, 13, 15, 17]
    /// Bytes in a full group.
    static let groupByteCount = 7

    /// Encodes `bytes` as decimal digits, after `prefix` (ASCII) when one is given.
    package static func encode(_ bytes: [UInt8], prefixedWith prefix: String = "") -> String {
        let prefixLength = prefix.utf8.count
        let length = prefixLength + bytes.count / groupByteCount * 17 + digitsPerByteCount[bytes.count % groupByteCount]
        return bytes.withUnsafeBufferPointer { bytes in
            String(unsafeUninitializedCapacity: length) { text in
                _ = text.initialize(from: prefix.utf8)
                var written = prefixLength
                var index = 0
                while index < bytes.count {
                    let end = min(index + groupByteCount, bytes.count)
                    var value: UInt64 = 0
                    for byte in bytes[index..<end] { value = value << 8 | UInt64(byte) }
                    let width = digitsPerByteCount[end - index]
                    // The group's digits, least significant first, from its right end: zero-padded.
                    var position = written + width
                    while position > written {
                        position -= 1
                        let (quotient, digit) = value.quotientAndRemainder(dividingBy: 10)
                        text[position] = 0x30 + UInt8(truncatingIfNeeded: digit)
                        value = quotient
                    }
                    written += width
                    index = end
                }
                return written
            }
        }
    }

    /// Decodes digits produced by ``encode(_:)``.
    ///
    /// - Throws: `.malformed(.digits)` for a non-digit or a length no byte count produces;
    ///   `.nonCanonicalEncoding` for a group whose value does not fit its byte count.
    package static func decode(_ text: Substring) throws(HandoffError) -> [UInt8] {
        var text = String(text)
        return try text.withUTF8 { digits in Result { () throws(HandoffError) in try decode(digits: digits[...]) } }.get()
    }

    /// Decodes the ASCII digits produced by ``encode(_:prefixedWith:)``, as ``decode(_:)`` does:
    /// one pass reads every digit, and a non-digit anywhere wins over a non-canonical group.
    static func decode(digits: Slice<UnsafeBufferPointer<UInt8>>) throws(HandoffError) -> [UInt8] {
        let fullGroups = digits.count / 17
        guard let tailBytes = digitsPerByteCount.firstIndex(of: digits.count % 17), tailBytes < groupByteCount else {
            throw .malformed(.digits)
        }
        let digits = UnsafeBufferPointer(rebasing: digits)
        var nonDigit = false
        var canonical = true
        let bytes = [UInt8](unsafeUninitializedCapacity: fullGroups * groupByteCount + tailBytes) { output, initialized in
            var offset = 0
            var written = 0
            for group in 0..<(fullGroups + (tailBytes > 0 ? 1 : 0)) {
                let byteCount = group < fullGroups ? groupByteCount : tailBytes
                let width = digitsPerByteCount[byteCount]
                var value: UInt64 = 0  // at most 17 digits: below 2^57
                for position in offset..<offset + width {
                    let digit = digits[position] &- 0x30
                    nonDigit = nonDigit || digit > 9
                    value = value &* 10 &+ UInt64(digit)
                }
                canonical = canonical && value >> UInt64(8 * byteCount) == 0
                for index in 0..<byteCount {
                    output[written + index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (byteCount - 1 - index)))
                }
                written += byteCount
                offset += width
            }
            initialized = written
        }
        guard !nonDigit else { throw .malformed(.digits) }
        guard canonical else { throw .nonCanonicalEncoding }
        return bytes
    }
}
