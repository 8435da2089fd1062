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

extension ScannedCodeRefusal: TranslatedSentence {
    /// A whole sentence for people: what the picture holds instead, and what to do.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .noCode:
            sentenceCatalog.sentence("refusal.noCode", in: language)
        case .severalCodes(let count):
            sentenceCatalog.sentence("refusal.severalCodes", .number(count), in: language)
        case .notATransferCode(let content):
            sentenceCatalog.sentence("refusal.notATransferCode", .text(content.words(in: language)), in: language)
        case .invalidTransferCode(let error):
            sentenceCatalog.sentence("refusal.invalidTransferCode", .text(error.message(for: .receiver, in: language)), in: language)
        }
    }
}
