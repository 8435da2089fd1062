import AccountHandoff

/// Asks one question until it gets a valid answer, echoing piped answers so the transcript
/// reads like a terminal session.
struct Asking {
    let console: Console
    let input: StandardInput
    let answers: AnswerQueue

    /// The person's answer; `.cancel` when standard input ended; `nil` when the question was
    /// abandoned because the session ended meanwhile (a newline is printed then).
    func ask(_ question: String, acceptsCode: Bool) async -> Prompt.Answer? {
        while true {
            Prompt.ask(question, acceptsCode: acceptsCode, console: console)
            switch await answers.next() {
            case .abandoned:
                console.raw("\n")
                return nil
            case .endOfInput:
                console.raw("\n")
                console.line("Standard input ended before an answer; cancelling the transfer.")
                return .cancel
            case .line(let line):
                if !input.isTerminal { console.raw(line + "\n") }
                if let answer = Prompt.answer(line, acceptsCode: acceptsCode) { return answer }
                console.line(acceptsCode ? "Please type the code the other device shows, or yes, no or cancel." : "Please answer yes, no or cancel.")
            }
        }
    }
}
