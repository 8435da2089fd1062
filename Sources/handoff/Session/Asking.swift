import AccountHandoff

/// Asks one question until it gets a valid answer, echoing piped answers so the transcript
/// reads like a terminal session.
///
/// A code question takes `yes` only from a person at a terminal: from a pipe or a file it
/// takes only the code the other device shows, so no script can confirm a device it did not
/// compare (`yes | handoff send` confirms nothing).
struct Asking {
    let console: Console
    let input: StandardInput
    let answers: AnswerQueue

    /// The person's answer; `.cancel` when standard input ended; `nil` when the question was
    /// abandoned because the session ended meanwhile (a newline is printed then).
    func ask(_ question: String, acceptsCode: Bool) async -> Prompt.Answer? {
        await answers.openQuestion()
        defer { Task { [answers] in await answers.closeQuestion() } }
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
                guard let answer = Prompt.answer(line, acceptsCode: acceptsCode) else {
                    console.line(acceptsCode ? "Please type the code the other device shows, or yes, no or cancel." : "Please answer yes, no or cancel.")
                    continue
                }
                if acceptsCode, answer == .yes, !input.isTerminal {
                    console.line("From a pipe or a file, answer with the code the other device shows; 'yes' is taken only from a person at a terminal.")
                    continue
                }
                return answer
            }
        }
    }
}
