import AccountHandoff

/// The process exit codes, one per kind of ending, so scripts can tell them apart.
package enum ExitCode: Int32, CaseIterable {
    /// The command did what it was asked.
    case success = 0
    /// The command line is wrong: unknown command or option, missing or conflicting arguments.
    case usage = 64
    /// An input is invalid: the transfer code, the account file or the password file.
    case invalidInput = 65
    /// The transfer code or session expired.
    case expired = 66
    /// A person rejected the transfer (codes differ, or the import was declined).
    case rejected = 67
    /// A person cancelled the transfer.
    case cancelled = 68
    /// A second device tried to join the transfer, so it was stopped.
    case contested = 69
    /// Anything else went wrong: the connection, the store, the system.
    case failure = 70
    /// The password was sent, but the receiving device did not confirm what it did with it.
    case deliveredUnconfirmed = 71
    /// Local authentication failed on this device or on the other one, so the transfer stopped.
    case notAuthenticated = 72

    /// One line for the help text.
    var summary: String {
        switch self {
        case .success: sentenceCatalog.sentence("exit.success", in: .cli)
        case .usage: sentenceCatalog.sentence("exit.usage", in: .cli)
        case .invalidInput: sentenceCatalog.sentence("exit.invalidInput", in: .cli)
        case .expired: sentenceCatalog.sentence("exit.expired", in: .cli)
        case .rejected: sentenceCatalog.sentence("exit.rejected", in: .cli)
        case .cancelled: sentenceCatalog.sentence("exit.cancelled", in: .cli)
        case .contested: sentenceCatalog.sentence("exit.contested", in: .cli)
        case .failure: sentenceCatalog.sentence("exit.failure", in: .cli)
        case .deliveredUnconfirmed: sentenceCatalog.sentence("exit.deliveredUnconfirmed", in: .cli)
        case .notAuthenticated: sentenceCatalog.sentence("exit.notAuthenticated", in: .cli)
        }
    }
}

/// A failure to report to the person: a whole sentence that says what to do next, and the
/// exit code. The message never contains a secret.
package struct CLIError: Error {
    package let message: String
    package let exitCode: ExitCode

    package init(_ message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A usage error that points at the command's help.
    package static func usage(_ message: String, command: String?) -> CLIError {
        let help = command.map { "\(CommandManual.program) help \($0)" } ?? "\(CommandManual.program) help"
        return CLIError(sentenceCatalog.sentence("cli.usageHint", .text(message), .text(help), in: .cli), exitCode: .usage)
    }
}
