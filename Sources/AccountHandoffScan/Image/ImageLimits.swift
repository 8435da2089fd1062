/// Caps on what an image reader accepts, checked before the pixels are decoded, so a small
/// file that declares a huge picture (a decompression bomb) is refused without allocating it.
public struct ImageLimits: Hashable, Sendable {
    /// The largest file read, in bytes.
    public var maximumFileByteCount: Int
    /// The longest side, in pixels.
    public var maximumSide: Int
    /// The most pixels (width times height); the greyscale copy takes one byte each.
    public var maximumPixelCount: Int
    /// The most progressive scans a JPEG may have (each one is a pass over the whole image).
    public var maximumJPEGScans: Int
    /// The working memory libjpeg may use beyond the output, in bytes.
    public var maximumJPEGMemory: Int

    /// Room for a photo from any current phone (a 48-megapixel 8000 x 6000 picture, a 20,000
    /// pixel panorama) in a file of at most 64 MiB.
    public static let standard = ImageLimits(maximumFileByteCount: 64 << 20, maximumSide: 20_000,
                                             maximumPixelCount: 50_000_000, maximumJPEGScans: 500,
                                             maximumJPEGMemory: 512 << 20)

    /// Sets every cap; see the properties.
    public init(maximumFileByteCount: Int, maximumSide: Int, maximumPixelCount: Int, maximumJPEGScans: Int,
                maximumJPEGMemory: Int) {
        self.maximumFileByteCount = maximumFileByteCount
        self.maximumSide = maximumSide
        self.maximumPixelCount = maximumPixelCount
        self.maximumJPEGScans = maximumJPEGScans
        self.maximumJPEGMemory = maximumJPEGMemory
    }

    /// Whether a picture of `width` by `height` pixels may be decoded.
    func admits(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width <= maximumSide && height <= maximumSide
            && width.multipliedReportingOverflow(by: height).partialValue <= maximumPixelCount
    }
}
