/// A minimal PNG writer (PNG specification, ISO/IEC 15948): signature, `IHDR` for a 1-bit
/// grayscale image, one `IDAT` holding a zlib stream of stored (uncompressed) deflate blocks,
/// and `IEND`. Enough for every common decoder; no compression library needed.
enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest payload of one stored deflate block.
    static let storedBlockLimit = 65_535

    static func encode(_ image: GrayscaleBitmap) -> [UInt8] {
        var header: [UInt8] = []
        header += bigEndian(UInt32(image.width))
        header += bigEndian(UInt32(image.height))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filters, no interlace
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity((image.rowByteCount + 1) * image.height)
        for y in 0..<image.height {
            scanlines.append(0)  // filter type None
            scanlines += image.row(y)
        }
        return signature + chunk("IHDR", header) + chunk("IDAT", zlibStored(scanlines)) + chunk("IEND", [])
    }

    /// `length | type | data | CRC-32(type | data)`.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(Checksum.crc32(typeAndData))
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 section 3.2.4) plus Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]  // deflate, 32K window, no preset dictionary, check bits
        var offset = 0
        repeat {
            let count = min(storedBlockLimit, data.count - offset)
            let isFinal = offset + count == data.count
            output.append(isFinal ? 1 : 0)  // BFINAL, BTYPE = 00 (stored)
            let length = UInt16(count)
            output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        return output + bigEndian(Checksum.adler32(data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
