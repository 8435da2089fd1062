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

extension QRScanError: TranslatedSentence {
    /// The sentence of the underlying error.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .image(let error): error.sentence(in: language)
        case .scannerUnavailable: sentenceCatalog.sentence("scan.scannerUnavailable", in: language)
        case .refused(let refusal): refusal.sentence(in: language)
        case .camera(let error): error.sentence(in: language)
        }
    }
}
