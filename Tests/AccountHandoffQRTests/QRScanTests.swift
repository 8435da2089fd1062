import AccountHandoff
import AccountHandoffQR
import Foundation
import Testing

/// Proof that the rendered images really scan: each format goes through zbarimg and the decoded
/// text parses back to the identical session fields.
@Suite struct QRScanTests {
    static let tokenSizes = [0, 8, 12, RendezvousToken.maximumByteCount]

    private func scan(_ bytes: Data, extension fileExtension: String) throws -> [String] {
        let directory = try ZBar.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("code.\(fileExtension)")
        try bytes.write(to: file)
        return try ZBar.decode(file)
    }

    @Test(arguments: tokenSizes)
    func pngScansBackToTheSamePayload(tokenByteCount: Int) throws {
        let payload = try Fixtures.payload(tokenByteCount: tokenByteCount, fill: 0xFF)
        for level in QRErrorCorrection.allCases {
            let png = PNGQRRenderer(scale: 4).render(try QRMatrix(payload: payload, errorCorrection: level))
            let decoded = try scan(Data(png), extension: "png")
            #expect(decoded == [payload.text], "level \(level)")
            #expect(try SessionPayload(text: decoded.first ?? "") == payload)
        }
    }

    @Test(arguments: tokenSizes)
    func svgScansBackToTheSamePayload(tokenByteCount: Int) throws {
        let payload = try Fixtures.payload(tokenByteCount: tokenByteCount, seed: 11)
        let svg = SVGQRRenderer(moduleSize: 6).render(try QRMatrix(payload: payload))
        let decoded = try scan(Data(svg.utf8), extension: "svg")
        #expect(decoded == [payload.text])
        #expect(try SessionPayload(text: decoded.first ?? "") == payload)
    }

    @Test(arguments: TerminalQRRenderer.Palette.allCases)
    func terminalOutputScansBackToTheSamePayload(palette: TerminalQRRenderer.Palette) throws {
        let payload = try Fixtures.payload(tokenByteCount: RendezvousToken.maximumByteCount, seed: 5)
        let matrix = try QRMatrix(payload: payload)
        let text = TerminalQRRenderer(palette: palette).render(matrix)
        let redrawn = try #require(TerminalText.matrix(from: text, palette: palette, quietZone: 4, errorCorrection: .medium))
        #expect(redrawn == matrix)
        let decoded = try scan(Data(PNGQRRenderer(scale: 4).render(redrawn)), extension: "png")
        #expect(try SessionPayload(text: decoded.first ?? "") == payload)
    }

    @Test func pngWithoutQuietZoneAtScaleOneStillHasTheRightDimensions() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        let png = PNGQRRenderer(scale: 1, quietZone: 0).render(matrix)
        // IHDR width and height sit at bytes 16..<24.
        #expect(Array(png[16..<24]) == [0, 0, 0, 37, 0, 0, 0, 37])
    }
}

/// Reads the terminal renderer's half blocks back into modules, as a camera would.
enum TerminalText {
    static func matrix(from text: String, palette: TerminalQRRenderer.Palette, quietZone: Int,
                       errorCorrection: QRErrorCorrection) -> QRMatrix? {
        var pixelRows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            let glyphs = stripEscapes(String(line))
            var upper: [Bool] = []
            var lower: [Bool] = []
            for glyph in glyphs {
                let ink: (Bool, Bool)
                switch glyph {
                case "\u{2588}": ink = (true, true)
                case "\u{2580}": ink = (true, false)
                case "\u{2584}": ink = (false, true)
                case " ": ink = (false, false)
                default: return nil
                }
                let dark = palette == .lightOnDark ? (!ink.0, !ink.1) : ink
                upper.append(dark.0)
                lower.append(dark.1)
            }
            pixelRows.append(upper)
            pixelRows.append(lower)
        }
        let side = (pixelRows.first?.count ?? 0) - 2 * quietZone
        guard side > 17, (side - 17) % 4 == 0, pixelRows.count >= side + quietZone else { return nil }
        let rows = pixelRows[quietZone..<quietZone + side].map { Array($0[quietZone..<quietZone + side]) }
        return QRMatrix(version: (side - 17) / 4, errorCorrection: errorCorrection, rows: rows)
    }

    private static func stripEscapes(_ line: String) -> [Character] {
        var output: [Character] = []
        var inEscape = false
        for character in line {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                output.append(character)
            }
        }
        return output
    }
}
