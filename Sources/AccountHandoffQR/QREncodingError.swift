import AccountHandoff

/// Why a QR symbol could not be built.
public enum QREncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A segment holds characters its mode cannot encode, or there is no data at all.
    case invalidSegment
    /// The data does not fit the largest QR symbol (version 40) at the chosen level.
    case dataTooLarge
    /// libqrencode failed for another reason; the C `errno` is reported.
    case encoderFailed(errno: Int32)

    /// A whole sentence for people.
    public var description: String {
        switch self {
        case .invalidSegment: "The QR data is empty or contains characters its encoding mode cannot hold; build the QR from the transfer code's text as the library gives it."
        case .dataTooLarge: "The data is too large for a QR code at this error-correction level; choose a lower level."
        case .encoderFailed(let code): "The QR encoder failed: \(SystemErrorWords.cause(code)); try again."
        }
    }
}
