import AccountHandoff
import AccountHandoffQR
import AccountHandoffScan
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// The sending terminal shows the whole QR and the whole transfer code at once, however
/// small the window: on an 80 × 24 terminal (a pseudo-terminal of that size) every module of
/// the symbol, its quiet zone and every character of the code are on screen once the code is
/// drawn; in a window too small even for that, no part of a QR is drawn and a sentence says
/// what to do.
@Suite(.startsProcesses) struct CLIQRWindowTests {
    /// Black on white, where every QR line of the ANSI palette starts.
    static let qrLineStart = "\u{1B}[30;47m"

    @Test func theWholeQRAndTheCodeFitAnEightyByTwentyFourTerminal() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try TerminalProcess(Self.sendArguments(scratch), size: (columns: 80, rows: 24))
        let screen = try #require(await Self.drawnCode(sender), "no transfer code: \(sender.screen)")
        sender.signal(SIGINT)
        _ = await sender.finish()

        let code = try #require(screen.split(separator: "\n").last { $0.hasPrefix("Transfer code: ") }).dropFirst("Transfer code: ".count)
        let matrix = try QRMatrix(payload: try SessionPayload(text: String(code)))
        let visible = Self.visibleRows(of: screen, columns: 80, rows: 24)
        // The code: its wrapped line is whole on screen, right above the cursor's row.
        #expect(visible.dropLast().suffix(3).map(\.text).joined() == "Transfer code: \(code)")
        // The QR: every line of it drawn is on screen, and they hold every module.
        let drawn = screen.components(separatedBy: "\n").filter { $0.hasPrefix(Self.qrLineStart) }.count
        let shown = visible.filter(\.isQR)
        #expect(shown.count == drawn && drawn == (matrix.size + 2 + 1) / 2, "\(shown.count) of \(drawn) QR lines on screen")
        for (line, row) in zip(shown, stride(from: -1, to: matrix.size + 1, by: 2)) {
            let glyphs = Array(line.text.prefix(matrix.size + 2))
            for column in -1...matrix.size {
                let glyph = glyphs[column + 1]
                #expect((glyph == "█" || glyph == "▀") == matrix[row, column], "module \(row), \(column)")
                #expect((glyph == "█" || glyph == "▄") == matrix[row + 1, column], "module \(row + 1), \(column)")
            }
        }
        // zbar reads the lines on screen, drawn as a dark-themed terminal shows them (its
        // background dark right outside the one light module of quiet zone).
        let picture = try #require(Self.picture(of: shown.map { String($0.text.prefix(matrix.size + 2)) }))
        let read = try await blocking { try QRImageScanner.qrCodesBlocking(in: picture) }
        #expect(read.map { String(decoding: $0.bytes, as: UTF8.self) } == [String(code)])
        // What to do with it is beside it.
        #expect(visible.contains { $0.isQR && $0.text.hasSuffix("  Scan this QR code with the receiving") })
        print("80x24: QR version \(matrix.version), \(matrix.size) modules, drawn as \(shown.count) lines of \(matrix.size + 2) columns; code \(code.count) characters on 3 lines; \(visible.count) rows")
    }

    @Test func aWindowTooSmallForTheQRSaysSoAndDrawsNone() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try TerminalProcess(Self.sendArguments(scratch), size: (columns: 80, rows: 20))
        let screen = try #require(await Self.drawnCode(sender), "no transfer code: \(sender.screen)")
        sender.signal(SIGINT)
        _ = await sender.finish()
        #expect(!screen.contains(Self.qrLineStart), "no part of a QR is drawn")
        #expect(screen.contains("This window (80×20) is too small to show the QR code whole: it needs 80 columns and 24 lines. Enlarge the window or make its font smaller, then press Ctrl-C and start again to see it; or paste the transfer code below on the receiving computer, or save the QR code as an image with --png FILE.\n"))
        let visible = Self.visibleRows(of: screen, columns: 80, rows: 20)
        let code = try #require(screen.split(separator: "\n").last { $0.hasPrefix("Transfer code: ") })
        #expect(visible.dropLast().suffix(3).map(\.text).joined() == code)
    }

    static func sendArguments(_ scratch: Scratch) -> [String] {
        ["send", "--account", scratch.accountFile.path, "--password-file", scratch.passwordFile.path,
         "--lifetime", String(Scratch.longestLifetime), "--no-local-auth"]
    }

    /// The screen once the code is drawn: its last line is the transfer code's, whole.
    static func drawnCode(_ sender: TerminalProcess) async -> String? {
        let drawn = await sender.waitUntil(timeout: HandoffProcess.patience) {
            sender.screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last?.hasPrefix("Transfer code: AH:") == true
                && sender.screen.hasSuffix("\n")
        }
        return drawn ? sender.screen : nil
    }

    /// Half-block lines as a grey picture: 6 pixels a module, 8 dark modules around.
    static func picture(of lines: [String]) -> GreyImage? {
        let scale = 6
        let border = 8
        let modules = lines.flatMap { line in
            [line.map { $0 == "█" || $0 == "▀" }, line.map { $0 == "█" || $0 == "▄" }]
        }
        guard let width = modules.first?.count else { return nil }
        let side = (width + 2 * border) * scale
        let height = (modules.count + 2 * border) * scale
        var pixels = [UInt8](repeating: 0, count: side * height)
        for (row, cells) in modules.enumerated() {
            for (column, dark) in cells.enumerated() where !dark {
                for y in 0..<scale {
                    let start = ((row + border) * scale + y) * side + (column + border) * scale
                    pixels.replaceSubrange(start..<start + scale, with: repeatElement(255, count: scale))
                }
            }
        }
        return GreyImage(width: side, height: height, pixels: pixels)
    }

    struct Row {
        let text: String
        let isQR: Bool
    }

    /// The rows a `columns` × `rows` terminal shows after printing `output` (escape sequences
    /// take no room, a longer line wraps, the cursor's row is the last).
    static func visibleRows(of output: String, columns: Int, rows: Int) -> [Row] {
        let physical = output.components(separatedBy: "\n").flatMap { line -> [Row] in
            let isQR = line.hasPrefix(qrLineStart)
            let text = Array(line.replacing(/\u{1B}\[[0-9;]*m/, with: ""))
            return stride(from: 0, to: max(text.count, 1), by: columns).map {
                Row(text: String(text[$0..<min($0 + columns, text.count)]), isQR: isQR)
            }
        }
        return Array(physical.suffix(rows))
    }
}
