import AccountHandoff

/// Why a QR symbol could not be built.
public enum QREncodingError: Error, Hashable, Sendable, TranslatedSentence {
    /// A segment holds characters its mode cannot encode, or there is no data at all.
    case invalidSegment
    /// The data does not fit the largest QR symbol (version 40) at the chosen level.
    case dataTooLarge
    /// libqrencode failed for another reason; the C `errno` is reported.
    case encoderFailed(errno: Int32)

    /// A whole sentence for people.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .invalidSegment: sentenceCatalog.sentence("qr.invalidSegment", in: language)
        case .dataTooLarge: sentenceCatalog.sentence("qr.dataTooLarge", in: language)
        case .encoderFailed(let code):
            sentenceCatalog.sentence("qr.encoderFailed", .text(SystemErrorWords.cause(code, in: language)), in: language)
        }
    }
}
