import AccountHandoff
import Foundation

extension HandoffLanguage {
    /// The language of the library's sentences the CLI prints: POSIX's message locale
    /// (`LC_ALL`, then `LC_MESSAGES`, then `LANG`) on every platform, as a command-line tool
    /// follows it. The CLI's own sentences, questions and help are English.
    static let cli = HandoffLanguage(posixEnvironment: ProcessInfo.processInfo.environment)
}
