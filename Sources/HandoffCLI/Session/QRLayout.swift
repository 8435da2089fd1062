import AccountHandoffQR

/// How the transfer code's QR is laid out on the sending terminal, so that the person at the
/// receiving device sees the whole symbol and the code's text at once, however small the
/// window.
///
/// - `standard`: the header, the QR with the standard quiet zone (4 modules), then the code
///   and the instructions, when all of it fits the window.
/// - `compact`: the instructions first, then the QR with a quiet zone of one module and the
///   header beside it, then the code as the last lines, when those two fit the window.
/// - `tooSmall`: not even that fits; the QR is not drawn (a part of it cannot be scanned),
///   and a sentence says so and what to do.
enum QRLayout: Equatable {
    case standard
    case compact
    case tooSmall(neededColumns: Int, neededRows: Int)

    /// The quiet zone of the compact QR, in modules; the terminal's own margin and the ANSI
    /// palette's light background stand in for the rest.
    static let compactQuietZone = 1
    /// Columns between the compact QR and the text beside it.
    static let sideGap = 2
    /// The narrowest text beside the compact QR worth writing.
    static let narrowestSideText = 16

    /// Chooses the layout for a symbol of `moduleCount` modules a side.
    ///
    /// - Parameters:
    ///   - terminal: the window, or `nil` when output is no terminal (the standard layout).
    ///   - standardText: every line the standard layout prints besides the QR (the header,
    ///     the code, the instructions).
    ///   - codeLine: the line with the transfer code.
    ///   - linesAfter: lines printed right after the drawing (a relay's state).
    static func choose(moduleCount: Int, terminal: TerminalSize?, standardText: [String], codeLine: String, linesAfter: Int) -> QRLayout {
        guard let terminal else { return .standard }
        // The last row holds the cursor, so a window of R rows shows R - 1 printed lines.
        let usable = terminal.rows - 1 - linesAfter
        let standardRows = renderedRows(moduleCount, quietZone: QRMatrix.standardQuietZone)
            + standardText.reduce(0) { $0 + wrappedRows($1, columns: terminal.columns) }
        if standardRows <= usable, renderedColumns(moduleCount, quietZone: QRMatrix.standardQuietZone) <= terminal.columns {
            return .standard
        }
        let compactRows = renderedRows(moduleCount, quietZone: compactQuietZone) + wrappedRows(codeLine, columns: terminal.columns)
        let compactColumns = renderedColumns(moduleCount, quietZone: compactQuietZone)
        if compactRows <= usable, compactColumns <= terminal.columns { return .compact }
        // What a window needs for the compact layout (the code's line wraps at its width).
        let neededColumns = max(compactColumns, terminal.columns)
        return .tooSmall(neededColumns: neededColumns,
                         neededRows: renderedRows(moduleCount, quietZone: compactQuietZone) + wrappedRows(codeLine, columns: neededColumns) + 1 + linesAfter)
    }

    /// Text lines of a symbol drawn with half blocks (two module rows a line).
    static func renderedRows(_ moduleCount: Int, quietZone: Int) -> Int { (moduleCount + 2 * quietZone + 1) / 2 }
    /// Columns of a symbol drawn with half blocks (one module a column).
    static func renderedColumns(_ moduleCount: Int, quietZone: Int) -> Int { moduleCount + 2 * quietZone }
    /// Rows `text` takes on a terminal `columns` wide (every character one column).
    static func wrappedRows(_ text: String, columns: Int) -> Int { max(1, (text.count + columns - 1) / max(1, columns)) }
}
