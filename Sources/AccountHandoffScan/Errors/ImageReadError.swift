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
    /// libpng refused the PNG; its message is reported.
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

extension ImageReadError: LocalizedErrorSentence {
    /// A whole sentence for people: what is wrong with the file and what to do.
    public var description: String {
        let retake = "take or export the photo again as PNG or JPEG"
        switch self {
        case .unreadable(let path, let code):
            return "The image \(path) cannot be read: \(SystemErrorWords.cause(code)); check the path and its permissions."
        case .notARegularFile(let path):
            return "The path \(path) is not a regular file; give the path of the photo or screenshot of the QR code."
        case .empty(let path):
            return "The image \(path) is empty; \(retake)."
        case .fileTooLarge(let path, let count, let limit):
            return "The image \(path) is \(Self.mebibytes(count)), more than the \(Self.mebibytes(limit)) this reader accepts; "
                + "save a smaller copy (the QR code needs only a few hundred pixels)."
        case .changedWhileRead(let path):
            return "The image \(path) changed while it was read; wait until it is completely written, then try again."
        case .unsupportedFormat(let path, let format):
            let what = format == .unknown ? "neither a PNG nor a JPEG image" : "a \(format.rawValue) file, not a PNG or JPEG image"
            return "The file \(path) is \(what); save or convert the photo as PNG or JPEG, then try again."
        case .tooManyPixels(let path, let width, let height, let limits):
            return "The image \(path) declares \(width) x \(height) pixels, more than this reader decodes (at most "
                + "\(limits.maximumSide) pixels a side and \(limits.maximumPixelCount / 1_000_000) megapixels); "
                + "save a smaller copy of the photo."
        case .damagedPNG(let path, let libpng):
            return "The PNG image \(path) is damaged or incomplete (libpng: \(libpng)); \(retake)."
        case .damagedJPEG(let path, let libjpeg):
            return "The JPEG image \(path) is damaged or cannot be decoded (libjpeg: \(libjpeg.text)); \(retake)."
        case .incompleteJPEG(let path, let libjpeg):
            return "The JPEG image \(path) is incomplete or corrupt (libjpeg: \(libjpeg.text)); \(retake)."
        case .tooManyJPEGScans(let path, let limit):
            return "The JPEG image \(path) has more than \(limit) progressive scans, which no camera writes; \(retake)."
        case .outOfMemory(let path):
            return "There is not enough memory to decode the image \(path); close other programs or save a smaller copy of the photo."
        }
    }

    private static func mebibytes(_ count: Int) -> String {
        count >= 1 << 20 ? "\(count >> 20) MiB" : "\(count) bytes"
    }
}
