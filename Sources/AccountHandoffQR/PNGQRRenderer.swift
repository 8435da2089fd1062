/// Draws a QR symbol as a 1-bit grayscale PNG with a quiet zone, scaled so each module is a
/// square of pixels.
public struct PNGQRRenderer: Sendable {
    /// Pixels per module (clamped to 1...64).
    public var scale: Int
    /// Light margin in modules on every side (clamped to 0...16).
    public var quietZone: Int

    /// Creates a renderer with 8-pixel modules and the standard quiet zone.
    public init(scale: Int = 8, quietZone: Int = QRMatrix.standardQuietZone) {
        self.scale = min(max(scale, 1), 64)
        self.quietZone = min(max(quietZone, 0), 16)
    }

    /// The PNG file bytes.
    public func render(_ matrix: QRMatrix) -> [UInt8] {
        let side = (matrix.size + 2 * quietZone) * scale
        var image = GrayscaleBitmap(width: side, height: side)
        for y in 0..<side {
            let row = y / scale - quietZone
            for x in 0..<side where !matrix[row, x / scale - quietZone] {
                image.setLight(x: x, y: y)
            }
        }
        return PNGEncoder.encode(image)
    }
}

/// A 1-bit image: each row packed most-significant bit first, 1 meaning light (white).
struct GrayscaleBitmap {
    let width: Int
    let height: Int
    /// Bytes per packed row.
    var rowByteCount: Int { (width + 7) / 8 }
    /// Packed rows, all dark to begin with.
    private(set) var packed: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.packed = [UInt8](repeating: 0, count: (width + 7) / 8 * height)
    }

    mutating func setLight(x: Int, y: Int) {
        packed[y * rowByteCount + x / 8] |= 0x80 >> UInt8(x % 8)
    }

    /// One packed row.
    func row(_ y: Int) -> ArraySlice<UInt8> {
        packed[y * rowByteCount..<(y + 1) * rowByteCount]
    }
}
