import AccountHandoff
import Foundation

/// A question asked on the terminal, answered on standard input. The demo recognises a
/// question by the marker at the end of its text.
package enum Prompt {
    /// Ends a yes/no/cancel question.
    package static let marker = "[yes/no/cancel] "
    /// Ends the sender's question for the code the receiving device shows.
    package static let codeMarker = "[code/no/cancel] "
    /// Ends the local-authentication gate's question for the login password.
    package static let loginPasswordMarker = TerminalPAMConversation.marker

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
}

/// Answer lines for the questions of one session, consumed in order, each by the next
/// question asked: answers piped in ahead of their questions wait for them. That cannot
/// confirm a device nobody compared, because the sender's only confirmation is the code the
/// receiving device shows, which no one can type before it exists (Spec 4.4). A `cancel`
/// typed while no question is open cancels the transfer at once. A question that is still
/// open when the session ends is abandoned.
///
/// Lines are kept in guarded memory until a question takes them: a line may be the login
/// password the local-authentication gate asks for.
package actor AnswerQueue {
    /// What a waiting question gets.
    package enum Delivery {
        case line(SecretBytes)
        case endOfInput
        case abandoned
    }

    private var questionOpen = false
    private var closed = false
    private var unansweredQuestion: Question?
    private var secretOpen = false
    private var lines: [SecretBytes] = []
    private var ended = false
    private var waiter: CheckedContinuation<Delivery, Never>?
    private let isTerminal: Bool
    private var cancelTransfer: @Sendable () async -> Void = {}

    /// Starts forwarding `input`'s answer lines.
    package init(input: StandardInput) {
        isTerminal = input.isTerminal
        let lines = input.answers()
        Task { [weak self] in
            for await line in lines {
                if let self { await self.push(line) } else { line.wipe() }
            }
            await self?.endOfInput()
        }
    }

    /// What a `cancel` typed while no question is open does.
    package func onCancel(_ cancel: @escaping @Sendable () async -> Void) { cancelTransfer = cancel }

    /// A question is now on screen: the next line answers it. For a secret question on a
    /// terminal, lines typed ahead (they were shown) are discarded and echo is turned off.
    /// `false`, and nothing changes, once the queue is closed: the question is not asked.
    @discardableResult
    package func openQuestion(secret: Bool = false) -> Bool {
        guard !closed else { return false }
        questionOpen = true
        secretOpen = secret
        if secret, isTerminal {
            lines.forEach { $0.wipe() }
            lines.removeAll()
            TerminalEcho.turnOff()
        }
        return true
    }

    /// The question was answered (or abandoned).
    package func closeQuestion() {
        if secretOpen { TerminalEcho.restore() }
        questionOpen = false
        secretOpen = false
    }

    /// The next answer line to the open question, waiting for it if needed; `abandoned` once
    /// the queue is closed.
    package func next() async -> Delivery {
        if closed { return .abandoned }
        if !lines.isEmpty { return .line(lines.removeFirst()) }
        if ended { return .endOfInput }
        return await withCheckedContinuation { waiter = $0 }
    }

    /// Whether standard input has ended.
    var hasEnded: Bool { ended }

    /// Resumes a waiting question with `abandoned`.
    package func abandonWaiting() {
        waiter?.resume(returning: .abandoned)
        waiter = nil
    }

    /// The transfer is being cancelled: the waiting question is abandoned, and no line typed
    /// from now on answers anything (lines typed ahead are wiped).
    func close() {
        closed = true
        lines.forEach { $0.wipe() }
        lines.removeAll()
        abandonWaiting()
    }

    /// Records that standard input ended while `question` waited for its answer.
    func noteUnanswered(_ question: Question) {
        if unansweredQuestion == nil { unansweredQuestion = question }
    }

    /// The question that was waiting when standard input ended, if one was.
    var unanswered: Question? { unansweredQuestion }

    private func push(_ line: SecretBytes) {
        if closed { return line.wipe() }
        if !questionOpen, ["c", "cancel"].contains(Self.text(line, wipe: false).lowercased()) {
            line.wipe()
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

    /// The line as trimmed text; wipes the guarded line when asked.
    package static func text(_ line: SecretBytes, wipe: Bool) -> String {
        let text = line.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
        if wipe { line.wipe() }
        return text
    }
}
