internal import CNSS
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
    static func cause(_ code: Int32) -> String {
        let words: String = switch code {
        case SEC_ERROR_BAD_DATABASE.rawValue: "the database is damaged or in a format this NSS does not read"
        case SEC_ERROR_BAD_PASSWORD.rawValue: "the password is wrong"
        case SEC_ERROR_READ_ONLY.rawValue: "the database is read-only"
        case SEC_ERROR_NO_MEMORY.rawValue: "the system is out of memory"
        case SEC_ERROR_IO.rawValue: "an input/output error occurred"
        case SEC_ERROR_NO_KEY.rawValue: "the key is missing"
        case SEC_ERROR_BAD_DATA.rawValue: "the data is damaged"
        case SEC_ERROR_TOKEN_NOT_LOGGED_IN.rawValue: "the database is locked by its primary password"
        default: "NSS reported a failure"
        }
        guard let name = PR_ErrorToName(code) else { return "\(words) (NSS code \(code))" }
        return "\(words) (\(String(cString: name)))"
    }
}
