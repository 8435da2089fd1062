/// An 8-bit greyscale picture, row by row from the top, one byte per pixel (0 black, 255
/// white): what the QR scanner reads.
public struct GreyImage: Hashable, Sendable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width * height` bytes.
    public let pixels: [UInt8]

    /// Wraps pixels; `nil` unless there are exactly `width * height` of them and both are positive.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

extension GreyImage: CustomStringConvertible, CustomReflectable {
    /// The size only: the pixels may show a transfer code.
    public var description: String { "GreyImage(\(width)x\(height))" }

    /// The size only, as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["width": width, "height": height], displayStyle: .struct) }
}
