/// A minimal PNG writer (PNG specification, ISO/IEC 15948): signature, `IHDR` for a 1-bit
/// grayscale image, one `IDAT` holding the rows as a zlib stream at the best compression
/// (``Deflate``), and `IEND`.
enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func encode(_ image: GrayscaleBitmap) -> [UInt8] {
        var header: [UInt8] = []
        header += bigEndian(UInt32(image.width))
        header += bigEndian(UInt32(image.height))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filters, no interlace
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity((image.rowByteCount + 1) * image.height)
        for y in 0..<image.height {
            scanlines.append(0)  // filter type None: a row repeats the one above, which deflate finds anyway
            scanlines += image.row(y)
        }
        return signature + chunk("IHDR", header) + chunk("IDAT", Deflate.zlibStream(scanlines)) + chunk("IEND", [])
    }

    /// `length | type | data | CRC-32(type | data)`.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(Checksum.crc32(typeAndData))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
