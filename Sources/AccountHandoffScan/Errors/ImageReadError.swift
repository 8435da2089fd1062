import AccountHandoff

/// Why an image file could not be read as a picture. Every case names the file and none
/// holds a pixel.
public enum ImageReadError: Error, Hashable, Sendable {
    /// The file could not be opened or read; the C `errno` is reported.
    case unreadable(path: String, errno: Int32)
    /// The path names a folder, a device, a pipe or a socket.
    case notARegularFile(path: String)
    /// The file holds no bytes.
    case empty(path: String)
    /// The file is larger than ``ImageLimits/maximumFileByteCount``.
    case fileTooLarge(path: String, byteCount: Int, limit: Int)
    /// The file changed size while it was read.
    case changedWhileRead(path: String)
    /// The file is not a PNG or a JPEG (its first bytes say what it is, when known).
    case unsupportedFormat(path: String, ImageFormat)
    /// The picture declares more pixels, or a longer side, than the limits allow.
    case tooManyPixels(path: String, width: Int, height: Int, limits: ImageLimits)
    /// libpng refused the PNG; its message is reported (empty when it gave none).
    case damagedPNG(path: String, libpng: String)
    /// libjpeg refused the JPEG with an error.
    case damagedJPEG(path: String, libjpeg: LibraryMessage)
    /// libjpeg found the JPEG cut short or corrupt (a warning it would paper over).
    case incompleteJPEG(path: String, libjpeg: LibraryMessage)
    /// The JPEG has more progressive scans than ``ImageLimits/maximumJPEGScans``.
    case tooManyJPEGScans(path: String, limit: Int)
    /// The decoder could not allocate its memory.
    case outOfMemory(path: String)
}

extension ImageReadError: TranslatedSentence {
    /// A whole sentence for people: what is wrong with the file and what to do.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .unreadable(let path, let code):
            sentenceCatalog.sentence("image.unreadable", .text(path), .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .notARegularFile(let path):
            sentenceCatalog.sentence("image.notARegularFile", .text(path), in: language)
        case .empty(let path):
            sentenceCatalog.sentence("image.empty", .text(path), in: language)
        case .fileTooLarge(let path, let count, let limit):
            sentenceCatalog.sentence("image.fileTooLarge", .text(path), .text(Self.size(count, in: language)),
                                     .text(Self.size(limit, in: language)), in: language)
        case .changedWhileRead(let path):
            sentenceCatalog.sentence("image.changedWhileRead", .text(path), in: language)
        case .unsupportedFormat(let path, .unknown):
            sentenceCatalog.sentence("image.unsupportedFormat.unknown", .text(path), in: language)
        case .unsupportedFormat(let path, let format):
            sentenceCatalog.sentence("image.unsupportedFormat.known", .text(path), .text(format.rawValue), in: language)
        case .tooManyPixels(let path, let width, let height, let limits):
            sentenceCatalog.sentence("image.tooManyPixels", .text(path), .number(width), .number(height), .number(limits.maximumSide),
                                     .number(limits.maximumPixelCount / 1_000_000), in: language)
        case .damagedPNG(let path, let libpng):
            sentenceCatalog.sentence("image.damagedPNG", .text(path), .text(LibraryMessage.words(libpng, in: language)), in: language)
        case .damagedJPEG(let path, let libjpeg):
            sentenceCatalog.sentence("image.damagedJPEG", .text(path), .text(LibraryMessage.words(libjpeg.text, in: language)), in: language)
        case .incompleteJPEG(let path, let libjpeg):
            sentenceCatalog.sentence("image.incompleteJPEG", .text(path), .text(LibraryMessage.words(libjpeg.text, in: language)),
                                     in: language)
        case .tooManyJPEGScans(let path, let limit):
            sentenceCatalog.sentence("image.tooManyJPEGScans", .text(path), .number(limit), in: language)
        case .outOfMemory(let path):
            sentenceCatalog.sentence("image.outOfMemory", .text(path), in: language)
        }
    }

    private static func size(_ count: Int, in language: HandoffLanguage) -> String {
        count >= 1 << 20
            ? sentenceCatalog.sentence("image.size.mebibytes", .number(count >> 20), in: language)
            : sentenceCatalog.sentence("image.size.bytes", .number(count), in: language)
    }
}
