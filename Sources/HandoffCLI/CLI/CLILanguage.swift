import AccountHandoff
import Foundation

extension HandoffLanguage {
    /// The language of every sentence the CLI prints, the library's and its own (its String
    /// Catalog): POSIX's message locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`) on every
    /// platform, as a command-line tool follows it.
    static let cli = HandoffLanguage(posixEnvironment: ProcessInfo.processInfo.environment)
}
