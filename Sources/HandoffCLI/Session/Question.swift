/// The questions a transfer asks on the terminal, for the sentences about them: what the
/// person is told when standard input ended before anyone answered one.
enum Question: Sendable, Equatable {
    /// The sender's question for the code that the receiving device shows.
    case receivingDevicesCode
    /// The receiver's question whether to import the offered account.
    case importDecision
    /// The receiver's choice about a stored account like the offered one.
    case conflictChoice
    /// The local-authentication gate's login password (or another question PAM asks).
    case loginPassword

    /// Asked again after an answer that is not six digits, no or cancel.
    static let codeRetry = "Please type the six digits the receiving device shows, or no, or cancel."
    /// Asked again after an answer that is not yes, no or cancel.
    static let yesNoRetry = "Please answer yes, no or cancel."

    /// The sender's ending when standard input ended before anyone answered this question.
    var unansweredAtSender: String {
        switch self {
        case .receivingDevicesCode:
            "Standard input ended before anyone typed the code that the receiving device shows, so nobody answered and the transfer was cancelled. The password was not sent."
        case .loginPassword:
            "Standard input ended before anyone typed the login password, so nobody answered and the transfer was cancelled. The password was not sent."
        case .importDecision, .conflictChoice:
            "Standard input ended before anyone answered, so the transfer was cancelled. The password was not sent."
        }
    }

    /// The receiver's ending when standard input ended before anyone answered this question.
    var unansweredAtReceiver: String {
        switch self {
        case .importDecision:
            "Standard input ended before anyone answered whether to import the account, so nobody answered and the transfer was cancelled. Nothing was imported."
        case .conflictChoice:
            "Standard input ended before anyone chose what to do with the stored account like it, so nobody answered and the transfer was cancelled. Nothing was imported."
        case .loginPassword:
            "Standard input ended before anyone typed the login password, so nobody answered and the transfer was cancelled. Nothing was imported."
        case .receivingDevicesCode:
            "Standard input ended before anyone answered, so the transfer was cancelled. Nothing was imported."
        }
    }
}

/// How a command read standard input before its questions, which decides how a person gets to
/// answer the questions themselves when it is not a terminal.
package enum PipedAnswers: CaseIterable {
    /// `send --password-stdin`.
    case passwordFromStandardInput
    /// `send --password-file FILE`.
    case passwordFromFile
    /// `receive`, the code on standard input.
    case codeFromStandardInput
    /// `receive --code-file FILE`.
    case codeFromFile

    /// Said at the start when standard input is not a terminal, before the first question.
    package var warning: String {
        "Warning: standard input is not a terminal, so each question below takes the next line from it, and the transfer is cancelled if it ends first. " + advice
    }

    /// How to answer the questions at a terminal instead.
    var advice: String {
        switch self {
        case .passwordFromStandardInput:
            "To answer the questions yourself, give the password with --password-file FILE and run 'handoff send' on a terminal."
        case .passwordFromFile:
            "To answer the questions yourself, run 'handoff send' on a terminal without redirecting its standard input."
        case .codeFromStandardInput:
            "To answer the questions yourself, give the code with --code-file FILE and run 'handoff receive' on a terminal."
        case .codeFromFile:
            "To answer the questions yourself, run 'handoff receive' on a terminal without redirecting its standard input."
        }
    }
}
