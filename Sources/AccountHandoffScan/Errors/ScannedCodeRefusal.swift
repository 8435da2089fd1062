import AccountHandoff

/// Why the QR symbols found in a picture give no transfer code (``TransferCodeChoice``).
/// No case holds a symbol's data: it may be a secret.
public enum ScannedCodeRefusal: Error, Hashable, Sendable {
    /// No QR symbol could be read.
    case noCode
    /// This many different QR symbols were read.
    case severalCodes(Int)
    /// The one symbol is not a transfer code (no `AH:` prefix); what kind of data it holds.
    case notATransferCode(ForeignQRContent)
    /// The one symbol starts like a transfer code, but the strict decoder refuses it.
    case invalidTransferCode(HandoffError)
}

extension ScannedCodeRefusal: LocalizedErrorSentence {
    /// A whole sentence for people: what the picture holds instead, and what to do.
    public var description: String {
        switch self {
        case .noCode:
            return "This image holds no QR code that could be read; take a sharper photo from closer, with the whole code "
                + "in the picture and no glare on the screen, or type the code the sending device shows instead."
        case .severalCodes(let count):
            return "This image holds \(count) different QR codes, so it is not clear which one to use; photograph only the "
                + "code the sending device shows (cover or crop the others)."
        case .notATransferCode(let content):
            return "This image holds a QR code with \(content.words), not a transfer code (those start with AH: and are "
                + "shown by the sending device); photograph the code the sending device shows."
        case .invalidTransferCode(let error):
            return "This image holds a QR code that starts like a transfer code but is not a valid one. "
                + error.message(for: .receiver)
        }
    }
}
