import AccountHandoff
@testable import AccountHandoffQR
import CZlib
import Foundation
import Testing

/// The PNG of a transfer code is a valid, deflated file (PNG specification, ISO/IEC 15948):
/// every chunk's CRC holds, the image data is one zlib stream at the best compression whose
/// Adler-32 holds and which inflates to exactly the image's rows, and `zbarimg` reads it back.
@Suite struct PNGFileTests {
    /// The CLI's code (an 8-byte rendezvous: port and tag; version 5 at level M) drawn as the
    /// CLI draws it: 8 pixels per module and the standard quiet zone, 360 x 360 pixels.
    private static func standardCode() throws -> (payload: SessionPayload, matrix: QRMatrix, png: [UInt8]) {
        let payload = try Fixtures.payload(tokenByteCount: 8, seed: 3)
        let matrix = try QRMatrix(payload: payload)
        return (payload, matrix, PNGQRRenderer().render(matrix))
    }

    /// Deflated at the best level: 530 bytes with Debian 12's zlib 1.2.13; the stored
    /// (uncompressed) blocks written before took 16,628 bytes for this image.
    static let standardCodeByteBound = 1_024

    @Test func theStandardCodeScansBackAndIsSmall() throws {
        let (payload, matrix, png) = try Self.standardCode()
        #expect(matrix.version == 5 && matrix.errorCorrection == .medium)
        print("PNG of the standard code: \(png.count) bytes")
        #expect(png.count < Self.standardCodeByteBound)
        let directory = try ZBar.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("code.png")
        try Data(png).write(to: file)
        #expect(try ZBar.decode(file) == [payload.text])
    }

    @Test func everyChunkChecksAndTheImageDataInflatesToTheRows() throws {
        let (_, matrix, png) = try Self.standardCode()
        let chunks = try PNGChunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        for chunk in chunks {
            #expect(chunk.storedCRC == Checksum.crc32(Array(chunk.type.utf8) + chunk.data), "CRC of \(chunk.type)")
        }
        let side = (matrix.size + 2 * QRMatrix.standardQuietZone) * 8
        let stream = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        // zlib header (RFC 1950): deflate with a 32 KiB window, FCHECK valid, FLEVEL 3 (best).
        #expect(stream[0] == 0x78 && (UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0)
        #expect(stream[1] >> 6 == 3)
        let rows = Self.expectedRows(matrix, side: side)
        let inflated = try Inflate.zlibStream(stream, expectedCount: rows.count)
        #expect(inflated == rows)
        #expect(Array(stream.suffix(4)) == PNGEncoder.bigEndian(Adler32.of(rows)))
    }

    /// Filter byte 0 (None) and the packed row, light = 1, for every pixel row.
    private static func expectedRows(_ matrix: QRMatrix, side: Int) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<side {
            rows.append(0)
            var byte: UInt8 = 0
            for x in 0..<side {
                let light = !matrix[y / 8 - QRMatrix.standardQuietZone, x / 8 - QRMatrix.standardQuietZone]
                if light { byte |= 0x80 >> UInt8(x % 8) }
                if x % 8 == 7 || x == side - 1 {
                    rows.append(byte)
                    byte = 0
                }
            }
        }
        return rows
    }
}

/// The chunks of a PNG file after its signature.
private struct PNGChunks: Sequence {
    struct Chunk {
        let type: String
        let data: [UInt8]
        let storedCRC: UInt32
    }

    struct Malformed: Error {}

    private let chunks: [Chunk]

    init(_ file: [UInt8]) throws {
        guard Array(file.prefix(8)) == PNGEncoder.signature else { throw Malformed() }
        var offset = 8
        var chunks: [Chunk] = []
        func word(_ at: Int) -> UInt32 { file[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while offset < file.count {
            guard offset + 12 <= file.count else { throw Malformed() }
            let length = Int(word(offset))
            guard offset + 12 + length <= file.count else { throw Malformed() }
            let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
            chunks.append(Chunk(type: type, data: Array(file[offset + 8..<offset + 8 + length]), storedCRC: word(offset + 8 + length)))
            offset += 12 + length
        }
        self.chunks = chunks
    }

    func makeIterator() -> IndexingIterator<[Chunk]> { chunks.makeIterator() }
}

/// zlib's own inflate, which checks the stream's Adler-32 trailer too.
private enum Inflate {
    struct Failure: Error {
        let status: Int32
    }

    static func zlibStream(_ stream: [UInt8], expectedCount: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expectedCount + 1)
        var length = uLong(output.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK else { throw Failure(status: status) }
        return Array(output.prefix(Int(length)))
    }
}

/// Adler-32 (RFC 1950), written here from the RFC to check zlib's trailer.
enum Adler32 {
    /// The checksum of `bytes`.
    static func of(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
