import AccountHandoff

/// What a QR code that is not a transfer code holds, by kind only (never its contents), so
/// the refusal can say what the person photographed.
public enum ForeignQRContent: String, Hashable, Sendable, CaseIterable {
    /// A web address (`http://` or `https://`).
    case webAddress
    /// A Wi-Fi network's settings (`WIFI:`).
    case wifiNetwork
    /// A contact card (`BEGIN:VCARD` or `MECARD:`).
    case contactCard
    /// Other text.
    case text
    /// Bytes that are not UTF-8 text.
    case binaryData

    /// Classifies the data of a QR symbol that does not start with the transfer-code prefix.
    init(classifying bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            self = .binaryData
            return
        }
        let head = text.prefix(16).uppercased()
        if head.hasPrefix("HTTP://") || head.hasPrefix("HTTPS://") {
            self = .webAddress
        } else if head.hasPrefix("WIFI:") {
            self = .wifiNetwork
        } else if head.hasPrefix("BEGIN:VCARD") || head.hasPrefix("MECARD:") {
            self = .contactCard
        } else {
            self = .text
        }
    }

    /// The kind, as the end of "a QR code with ...".
    func words(in language: HandoffLanguage) -> String {
        switch self {
        case .webAddress: sentenceCatalog.sentence("foreign.webAddress", in: language)
        case .wifiNetwork: sentenceCatalog.sentence("foreign.wifiNetwork", in: language)
        case .contactCard: sentenceCatalog.sentence("foreign.contactCard", in: language)
        case .text: sentenceCatalog.sentence("foreign.text", in: language)
        case .binaryData: sentenceCatalog.sentence("foreign.binaryData", in: language)
        }
    }
}
