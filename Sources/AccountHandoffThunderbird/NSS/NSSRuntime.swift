internal import CNSS
import AccountHandoff
import Foundation

/// NSS, started once per process without a database of its own: every profile's key database
/// is then opened as a slot of its own (``ProfileKeyDatabase``), so several profiles can be
/// used in one process.
enum NSSRuntime {
    private static let started: Int32? = {
        if NSS_IsInitialized() != 0 { return nil }
        return NSS_NoDB_Init(nil) == SECSuccess ? nil : PR_GetError()
    }()

    /// Starts NSS if it is not running yet.
    ///
    /// - Returns: `nil`, or NSS's error number when it could not start.
    static func start() -> Int32? { started }

    /// The error number NSS set last on this thread.
    static var lastError: Int32 { PR_GetError() }
}

/// Words for the NSS error numbers this module meets.
enum NSSErrorWords {
    /// A lowercase clause with the NSS name of `code`.
    static func cause(_ code: Int32, in language: HandoffLanguage) -> String {
        let words = switch code {
        case SEC_ERROR_BAD_DATABASE.rawValue: sentenceCatalog.sentence("nss.badDatabase", in: language)
        case SEC_ERROR_BAD_PASSWORD.rawValue: sentenceCatalog.sentence("nss.badPassword", in: language)
        case SEC_ERROR_READ_ONLY.rawValue: sentenceCatalog.sentence("nss.readOnly", in: language)
        case SEC_ERROR_NO_MEMORY.rawValue: sentenceCatalog.sentence("nss.noMemory", in: language)
        case SEC_ERROR_IO.rawValue: sentenceCatalog.sentence("nss.io", in: language)
        case SEC_ERROR_NO_KEY.rawValue: sentenceCatalog.sentence("nss.noKey", in: language)
        case SEC_ERROR_BAD_DATA.rawValue: sentenceCatalog.sentence("nss.badData", in: language)
        case SEC_ERROR_TOKEN_NOT_LOGGED_IN.rawValue: sentenceCatalog.sentence("nss.locked", in: language)
        default: sentenceCatalog.sentence("nss.other", in: language)
        }
        guard let name = PR_ErrorToName(code) else { return sentenceCatalog.sentence("nss.numbered", .text(words), .number(code), in: language) }
        return sentenceCatalog.sentence("nss.named", .text(words), .text(String(cString: name)), in: language)
    }
}
