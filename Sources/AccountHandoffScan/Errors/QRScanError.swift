import AccountHandoff

/// Why no transfer code came from a picture or a camera: the file, the scanner, the codes
/// found, or the camera. No case holds a symbol's data.
public enum QRScanError: Error, Hashable, Sendable {
    /// The image file could not be read as a picture.
    case image(ImageReadError)
    /// zbar could not set up or run its scanner.
    case scannerUnavailable
    /// The picture was read, but its QR codes give no transfer code.
    case refused(ScannedCodeRefusal)
    /// The camera could not be used.
    case camera(CameraError)
}

extension QRScanError: LocalizedErrorSentence {
    /// The sentence of the underlying error.
    public var description: String {
        switch self {
        case .image(let error): error.description
        case .scannerUnavailable:
            "The QR scanner (zbar) could not process the picture, most likely for lack of memory; close other programs and try again."
        case .refused(let refusal): refusal.description
        case .camera(let error): error.description
        }
    }
}
