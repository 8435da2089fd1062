import AccountHandoff
import AccountHandoffPhotoLab
import AccountHandoffQR
import CZlib
import Foundation
import Testing

/// Pictures for the reader tests: QR codes drawn by the library's PNG renderer, and photos of
/// them made by ImageMagick (Debian's `convert`), in a scratch folder of the test's own.
struct Pictures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ah-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `bytes` to `name`; its path.
    @discardableResult
    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// A seeded transfer code, as a real sender builds it (``PhotoCode/payload(seed:tokenByteCount:)``).
    static func payload(seed: UInt64 = 7, tokenByteCount: Int = 3) throws -> SessionPayload {
        try PhotoCode.payload(seed: seed, tokenByteCount: tokenByteCount)
    }

    /// The transfer code's QR as the library draws it (1-bit grey PNG).
    static func png(_ payload: SessionPayload, scale: Int = 4) throws -> [UInt8] {
        PNGQRRenderer(scale: scale).render(try QRMatrix(payload: payload))
    }

    /// A QR code of any text (not a transfer code).
    static func png(text: String, scale: Int = 4) throws -> [UInt8] {
        PNGQRRenderer(scale: scale).render(try QRMatrix(automaticallySegmenting: text))
    }

    /// Runs ImageMagick's `convert` (``PhotoLab/convert(_:)``).
    func convert(_ arguments: [String]) throws { try PhotoLab.convert(arguments) }

    /// A PNG whose header declares `width` x `height` 8-bit grey pixels, followed by a few
    /// bytes of image data: a decompression bomb's header, not a whole picture.
    static func declaredPNG(width: UInt32, height: UInt32) -> [UInt8] {
        var header = bigEndian(width) + bigEndian(height)
        header += [8, 0, 0, 0, 0]  // bit depth 8, grey, deflate, adaptive filters, no interlace
        let data: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]  // zlib of one zero byte
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
