/// What a file's first bytes say it is. Only PNG and JPEG are decoded; the others are named
/// so that the refusal can say what to convert.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable {
    /// PNG (ISO/IEC 15948): decoded with libpng.
    case png = "PNG"
    /// JPEG (ITU T.81, JFIF or Exif): decoded with libjpeg.
    case jpeg = "JPEG"
    /// GIF; refused.
    case gif = "GIF"
    /// BMP; refused.
    case bmp = "BMP"
    /// TIFF; refused.
    case tiff = "TIFF"
    /// WebP; refused.
    case webp = "WebP"
    /// HEIF or HEIC (the iPhone's default); refused.
    case heif = "HEIF"
    /// AVIF; refused.
    case avif = "AVIF"
    /// An SVG or other XML document; refused.
    case svg = "SVG"
    /// A PDF document; refused.
    case pdf = "PDF"
    /// Anything else.
    case unknown = "unknown"

    /// The PNG file signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format `bytes` start with.
    public init(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(32))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts(Self.pngSignature) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if ascii("GIF87a") || ascii("GIF89a") {
            self = .gif
        } else if ascii("BM") {
            self = .bmp
        } else if ascii("II*\u{0}") || ascii("MM\u{0}*") {
            self = .tiff
        } else if ascii("RIFF"), ascii("WEBP", at: 8) {
            self = .webp
        } else if ascii("ftyp", at: 4), ascii("avif", at: 8) || ascii("avis", at: 8) {
            self = .avif
        } else if ascii("ftyp", at: 4), ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].contains(where: { ascii($0, at: 8) }) {
            self = .heif
        } else if ascii("%PDF") {
            self = .pdf
        } else if ascii("<?xml") || ascii("<svg") {
            self = .svg
        } else {
            self = .unknown
        }
    }

    /// Whether this reader decodes the format.
    public var isDecoded: Bool {
        switch self {
        case .png, .jpeg: true
        case .gif, .bmp, .tiff, .webp, .heif, .avif, .svg, .pdf, .unknown: false
        }
    }
}
