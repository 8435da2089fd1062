import AccountHandoff

/// Asks questions on the terminal and reads their answers from one ``AnswerQueue``, echoing
/// piped answers (never a secret one) so the transcript reads like a terminal session.
struct Asking: Sendable {
    let console: Console
    let input: StandardInput
    let answers: AnswerQueue

    /// The person's answer; `.cancel` when standard input ended (the queue records which
    /// question went unanswered); `nil` when the question was abandoned because the session
    /// ended or is being cancelled meanwhile.
    func ask(_ question: String, about topic: Question, acceptsCode: Bool) async -> Prompt.Answer? {
        let marker = acceptsCode ? Prompt.codeMarker : Prompt.marker
        while true {
            guard let line = await askLine(question, about: topic, marker: marker) else {
                return await answers.hasEnded ? .cancel : nil
            }
            guard let answer = Prompt.answer(line, acceptsCode: acceptsCode) else {
                console.line(acceptsCode ? Question.codeRetry : Question.yesNoRetry)
                continue
            }
            return answer
        }
    }

    /// Prints `question` and `marker`, then returns the next answer line; `nil` when standard
    /// input ended, the session ended or the asking task was cancelled.
    func askLine(_ question: String, about topic: Question, marker: String) async -> String? {
        guard let line = await deliver(question, about: topic, marker: marker, secret: false) else { return nil }
        let text = AnswerQueue.text(line, wipe: true)
        console.answered(echo: input.isTerminal ? "" : text + "\n")
        return text
    }

    /// Like ``askLine(_:about:marker:)`` for an answer that must stay secret (the gate's login
    /// password): echo is off at a terminal, the answer is never printed, and it stays in
    /// guarded memory.
    func askSecret(_ question: String, about topic: Question, marker: String) async -> SecretBytes? {
        guard let line = await deliver(question, about: topic, marker: marker, secret: true) else { return nil }
        console.answered(echo: "\n")
        return line
    }

    private func deliver(_ question: String, about topic: Question, marker: String, secret: Bool) async -> SecretBytes? {
        guard await answers.openQuestion(secret: secret) else { return nil }
        defer { Task { [answers] in await answers.closeQuestion() } }
        console.ask(console.prefix + question + " " + marker)
        let answers = self.answers
        let delivery = await withTaskCancellationHandler {
            await answers.next()
        } onCancel: {
            Task { await answers.abandonWaiting() }
        }
        switch delivery {
        case .abandoned:
            console.answered(echo: "\n")
            return nil
        case .endOfInput:
            // The ending says which question nobody answered (Question.unanswered).
            console.answered(echo: "\n")
            await answers.noteUnanswered(topic)
            return nil
        case .line(let line):
            return line
        }
    }
}
