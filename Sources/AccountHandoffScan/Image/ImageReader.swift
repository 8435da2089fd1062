/// Reads a PNG or JPEG file into an 8-bit greyscale picture, strictly: the file and the picture
/// within the caps, the format by its signature (never by the file name), every library
/// complaint an error.
public struct ImageReader: Sendable {
    /// The caps checked before anything is decoded.
    public var limits: ImageLimits

    /// A reader with `limits` (default ``ImageLimits/standard``).
    public init(limits: ImageLimits = .standard) {
        self.limits = limits
    }

    /// Reads and decodes the file at `path`.
    ///
    /// Blocking (it reads the file and decodes it): call it from a thread of your own, never
    /// from a Swift concurrency thread. ``QRImageScanner/transferCode(inImageAt:)``
    /// does that hop for you.
    ///
    /// - Throws: ``ImageReadError`` naming the file and what is wrong with it.
    public func read(fileAt path: String) throws(ImageReadError) -> GreyImage {
        try decode(ImageFile.contents(of: path, maximumByteCount: limits.maximumFileByteCount), path: path)
    }

    /// Decodes the bytes of an image file; `path` names it in errors.
    ///
    /// - Throws: ``ImageReadError`` as ``read(fileAt:)`` does, except the file-system cases.
    public func decode(_ file: [UInt8], path: String) throws(ImageReadError) -> GreyImage {
        guard !file.isEmpty else { throw .empty(path: path) }
        guard file.count <= limits.maximumFileByteCount else {
            throw .fileTooLarge(path: path, byteCount: file.count, limit: limits.maximumFileByteCount)
        }
        let format = ImageFormat(sniffing: file)
        switch format {
        case .png: return try PNGDecoder.grey(file, path: path, limits: limits)
        case .jpeg: return try JPEGDecoder.grey(file, path: path, limits: limits)
        case .gif, .bmp, .tiff, .webp, .heif, .avif, .svg, .pdf, .unknown: throw .unsupportedFormat(path: path, format)
        }
    }
}
