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
        let marker = acceptsCode ? Prompt.codeMarker : Prompt.marker
        while true {
            guard let line = await askLine(question, marker: marker) else {
                return await answers.hasEnded ? .cancel : nil
            }
            guard let answer = Prompt.answer(line, acceptsCode: acceptsCode) else {
                console.line(acceptsCode ? "Please type the six digits the receiving device shows, or no, or cancel." : "Please answer yes, no or cancel.")
                continue
            }
            return answer
        }
    }

    /// Prints `question` and `marker`, then returns the next answer line; `nil` when standard
    /// input ended (a sentence says the transfer is being cancelled) or the session ended.
    func askLine(_ question: String, marker: String) async -> String? {
        await answers.openQuestion()
        defer { Task { [answers] in await answers.closeQuestion() } }
        console.raw(console.prefix + question + " " + marker)
        switch await answers.next() {
        case .abandoned:
            console.raw("\n")
            return nil
        case .endOfInput:
            console.raw("\n")
            console.line("Standard input ended before an answer; cancelling the transfer.")
            return nil
        case .line(let line):
            if !input.isTerminal { console.raw(line + "\n") }
            return line
        }
    }
}
