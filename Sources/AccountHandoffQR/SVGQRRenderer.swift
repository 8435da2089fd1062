/// Draws a QR symbol as a standalone SVG document: a light background and one path of dark
/// modules, merged into horizontal runs.
///
/// Coordinates are whole pixels (the view box equals the pixel size) rather than modules
/// scaled by the view box: some rasterisers (ImageMagick's, which `zbarimg` uses) leave
/// anti-aliased seams between scaled shapes that stop decoders.
public struct SVGQRRenderer: Sendable {
    /// Pixels per module in the document's width and height (clamped to 1...64).
    public var moduleSize: Int
    /// Light margin in modules on every side (clamped to 0...16).
    public var quietZone: Int

    /// Creates a renderer with 8-pixel modules and the standard quiet zone.
    public init(moduleSize: Int = 8, quietZone: Int = QRMatrix.standardQuietZone) {
        self.moduleSize = min(max(moduleSize, 1), 64)
        self.quietZone = min(max(quietZone, 0), 16)
    }

    /// The SVG document text.
    public func render(_ matrix: QRMatrix) -> String {
        let side = matrix.size + 2 * quietZone
        let pixels = side * moduleSize
        var path = ""
        for row in 0..<matrix.size {
            var column = 0
            while column < matrix.size {
                guard matrix[row, column] else { column += 1; continue }
                let start = column
                while column < matrix.size, matrix[row, column] { column += 1 }
                let run = (column - start) * moduleSize
                path += "M\((start + quietZone) * moduleSize) \((row + quietZone) * moduleSize)h\(run)v\(moduleSize)h-\(run)z"
            }
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(pixels)" height="\(pixels)" \
        viewBox="0 0 \(pixels) \(pixels)" shape-rendering="crispEdges">
        <rect x="0" y="0" width="\(pixels)" height="\(pixels)" fill="#ffffff"/>
        <path fill="#000000" d="\(path)"/>
        </svg>

        """
    }
}
