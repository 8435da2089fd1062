@testable import AccountHandoffQR
import Testing

@Suite struct RendererTests {
    @Test func checksumsMatchKnownValues() {
        // CRC-32 of the IEND chunk type, as in every PNG file's last 4 bytes.
        #expect(Checksum.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(Checksum.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        // The tests' own Adler-32, which checks the PNG's zlib trailer (PNGFileTests).
        #expect(Adler32.of(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Adler32.of([]) == 1)
    }

    @Test func pngStartsWithSignatureAndEndsWithIEND() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        let png = PNGQRRenderer().render(matrix)
        #expect(Array(png.prefix(8)) == PNGEncoder.signature)
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        // IHDR: width = height = (37 + 8) * 8 = 360, bit depth 1, grayscale.
        #expect(Array(png[16..<26]) == [0, 0, 1, 0x68, 0, 0, 1, 0x68, 1, 0])
    }

    @Test func terminalPalettesDifferOnlyWhereTheyShould() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        let ansi = TerminalQRRenderer().render(matrix)
        let plain = TerminalQRRenderer(palette: .darkOnLight).render(matrix)
        let inverted = TerminalQRRenderer(palette: .lightOnDark).render(matrix)
        let lines = ansi.split(separator: "\n")
        #expect(lines.count == (37 + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.hasPrefix(TerminalQRRenderer.ansiStart) && $0.hasSuffix(TerminalQRRenderer.ansiReset) })
        #expect(!plain.contains("\u{1B}") && !inverted.contains("\u{1B}"))
        // The quiet zone is blank in the plain palette and solid ink in the inverted one.
        #expect(plain.split(separator: "\n")[0] == Substring(String(repeating: " ", count: 45)))
        #expect(inverted.split(separator: "\n")[0] == Substring(String(repeating: "\u{2588}", count: 45)))
    }

    @Test func svgHasViewBoxBackgroundAndOnePath() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        let svg = SVGQRRenderer(moduleSize: 10).render(matrix)
        #expect(svg.contains("width=\"450\" height=\"450\" viewBox=\"0 0 450 450\""))
        #expect(svg.components(separatedBy: "<path").count == 2)
        // The top-left finder pattern's first row is a run of 7 dark modules after the quiet zone.
        #expect(svg.contains("d=\"M40 40h70v10h-70z"))
    }
}
