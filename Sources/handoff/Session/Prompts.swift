import AccountHandoff

/// A question asked on the terminal, answered on standard input. The demo recognises a
/// question by the marker at the end of its text.
enum Prompt {
    /// Ends a yes/no/cancel question.
    static let marker = "[yes/no/cancel] "
    /// Ends the sender's question for the code the receiving device shows.
    static let codeMarker = "[code/no/cancel] "

    /// How a person answered.
    enum Answer: Equatable {
        case yes, no, cancel
        /// Digits the person typed: the code shown on the other device.
        case typedCode(String)
    }

    /// Reads `yes`/`y`, `no`/`n`, `cancel`/`c` (any case) and, when `acceptsCode`, six digits
    /// with optional spaces; `nil` for anything else.
    static func answer(_ line: String, acceptsCode: Bool) -> Answer? {
        switch line.lowercased() {
        case "y", "yes": return .yes
        case "n", "no": return .no
        case "c", "cancel": return .cancel
        default:
            let digits = line.filter { $0 != " " }
            guard acceptsCode, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return .typedCode(line)
        }
    }

    /// Prints a question and leaves the cursor after the marker.
    static func ask(_ question: String, acceptsCode: Bool, console: Console) {
        console.raw(console.prefix + question + " " + (acceptsCode ? codeMarker : marker))
    }
}

/// Answer lines for the questions of one session, consumed in order, each by the next
/// question asked: answers piped in ahead of their questions wait for them. That cannot
/// confirm a device nobody compared, because the sender's only confirmation is the code the
/// receiving device shows, which no one can type before it exists (Spec 4.4). A `cancel`
/// typed while no question is open cancels the transfer at once. A question that is still
/// open when the session ends is abandoned.
actor AnswerQueue {
    /// What a waiting question gets.
    enum Delivery: Equatable {
        case line(String)
        case endOfInput
        case abandoned
    }

    private var questionOpen = false
    private var lines: [String] = []
    private var ended = false
    private var waiter: CheckedContinuation<Delivery, Never>?
    private let console: Console
    private let cancelTransfer: @Sendable () async -> Void

    /// Starts forwarding `input`'s answer lines; `cancelTransfer` runs for a `cancel` typed
    /// while no question is open.
    init(input: StandardInput, console: Console, cancelTransfer: @escaping @Sendable () async -> Void) {
        self.console = console
        self.cancelTransfer = cancelTransfer
        let lines = input.answers()
        Task { [weak self] in
            for await line in lines { await self?.push(line) }
            await self?.endOfInput()
        }
    }

    /// A question is now on screen: the next line answers it.
    func openQuestion() {
        questionOpen = true
    }

    /// The question was answered (or abandoned).
    func closeQuestion() {
        questionOpen = false
    }

    /// The next answer line to the open question, waiting for it if needed.
    func next() async -> Delivery {
        if !lines.isEmpty { return .line(lines.removeFirst()) }
        if ended { return .endOfInput }
        return await withCheckedContinuation { waiter = $0 }
    }

    /// Whether standard input has ended.
    var hasEnded: Bool { ended }

    /// Resumes a waiting question with `abandoned`.
    func abandonWaiting() {
        waiter?.resume(returning: .abandoned)
        waiter = nil
    }

    private func push(_ line: String) {
        if !questionOpen, ["c", "cancel"].contains(line.lowercased()) {
            let cancel = cancelTransfer
            Task { await cancel() }
            return
        }
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: .line(line))
        } else {
            lines.append(line)
        }
    }

    private func endOfInput() {
        ended = true
        waiter?.resume(returning: .endOfInput)
        waiter = nil
    }
}
