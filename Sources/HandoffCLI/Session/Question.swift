import AccountHandoff

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
    static let codeRetry = sentenceCatalog.sentence("question.codeRetry", in: .cli)
    /// Asked again after an answer that is not yes, no or cancel.
    static let yesNoRetry = sentenceCatalog.sentence("question.yesNoRetry", in: .cli)

    /// The sender's ending when standard input ended before anyone answered this question.
    var unansweredAtSender: String {
        switch self {
        case .receivingDevicesCode:
            sentenceCatalog.sentence("unanswered.sender.code", in: .cli)
        case .loginPassword:
            sentenceCatalog.sentence("unanswered.sender.loginPassword", in: .cli)
        case .importDecision, .conflictChoice:
            sentenceCatalog.sentence("unanswered.sender.other", in: .cli)
        }
    }

    /// The receiver's ending when standard input ended before anyone answered this question.
    var unansweredAtReceiver: String {
        switch self {
        case .importDecision:
            sentenceCatalog.sentence("unanswered.receiver.import", in: .cli)
        case .conflictChoice:
            sentenceCatalog.sentence("unanswered.receiver.conflict", in: .cli)
        case .loginPassword:
            sentenceCatalog.sentence("unanswered.receiver.loginPassword", in: .cli)
        case .receivingDevicesCode:
            sentenceCatalog.sentence("unanswered.receiver.other", in: .cli)
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
        sentenceCatalog.sentence("piped.warning", .text(advice), in: .cli)
    }

    /// How to answer the questions at a terminal instead.
    var advice: String {
        switch self {
        case .passwordFromStandardInput:
            sentenceCatalog.sentence("piped.advice.passwordStdin", in: .cli)
        case .passwordFromFile:
            sentenceCatalog.sentence("piped.advice.passwordFile", in: .cli)
        case .codeFromStandardInput:
            sentenceCatalog.sentence("piped.advice.codeStdin", in: .cli)
        case .codeFromFile:
            sentenceCatalog.sentence("piped.advice.codeFile", in: .cli)
        }
    }
}
