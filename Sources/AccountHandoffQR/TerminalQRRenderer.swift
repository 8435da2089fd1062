/// Draws a QR symbol with Unicode half blocks, two module rows per text line, quiet zone
/// included, so a phone can scan it straight off the terminal.
public struct TerminalQRRenderer: Sendable {
    /// How the light and dark modules get their colours.
    public enum Palette: String, Sendable, CaseIterable {
        /// ANSI colours force black modules on a white background: reads the same on dark
        /// and light terminal themes. The default.
        case ansi
        /// No escape codes; dark modules are drawn in the text colour. For light themes.
        case darkOnLight
        /// No escape codes; light modules are drawn in the text colour. For dark themes.
        case lightOnDark
    }

    /// Black text on a white background.
    static let ansiStart = "\u{1B}[30;47m"
    /// Resets all attributes.
    static let ansiReset = "\u{1B}[0m"

    /// The colour scheme.
    public var palette: Palette
    /// Light margin in modules on every side (clamped to 0...16).
    public var quietZone: Int

    /// Creates a renderer; the defaults suit any terminal.
    public init(palette: Palette = .ansi, quietZone: Int = QRMatrix.standardQuietZone) {
        self.palette = palette
        self.quietZone = min(max(quietZone, 0), 16)
    }

    /// The symbol as lines of text, each ending in a newline.
    public func render(_ matrix: QRMatrix) -> String {
        let first = -quietZone
        let last = matrix.size + quietZone
        var output = ""
        for top in stride(from: first, to: last, by: 2) {
            if palette == .ansi { output += Self.ansiStart }
            for column in first..<last {
                // The row below the last one (odd total height) is outside and therefore light.
                let upper = matrix[top, column]
                let lower = top + 1 < last && matrix[top + 1, column]
                output += glyph(upper: upper, lower: lower)
            }
            if palette == .ansi { output += Self.ansiReset }
            output += "\n"
        }
        return output
    }

    private func glyph(upper: Bool, lower: Bool) -> String {
        // Glyphs paint their ink in the text colour: dark modules, or light ones when inverted.
        let inkUpper = palette == .lightOnDark ? !upper : upper
        let inkLower = palette == .lightOnDark ? !lower : lower
        switch (inkUpper, inkLower) {
        case (true, true): return "\u{2588}"
        case (true, false): return "\u{2580}"
        case (false, true): return "\u{2584}"
        case (false, false): return " "
        }
    }
}
