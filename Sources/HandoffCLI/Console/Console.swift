import Foundation

/// Everything the CLI prints goes through here: whole lines to standard output, errors to
/// standard error, written at once (unbuffered) so a pipe reader sees each line when it is
/// printed. Thread-safe, because the demo prints from reader threads.
///
/// - Warning: Never pass a secret. There is no code path that prints a password: it only
///   ever lives in `SecretBytes`.
package final class Console: @unchecked Sendable {
    // Safety of @unchecked Sendable: writes are serialised by `lock`.
    private let lock = NSLock()
    /// The question on the last line, waiting for its answer: a line printed meanwhile goes
    /// below it and the question is shown again, so no line ends up after a question's marker.
    private var openQuestion: String?
    /// Prepended to every line (the demo's children have none; the demo labels them itself).
    package let prefix: String

    package init(prefix: String = "") {
        self.prefix = prefix
    }

    /// Prints one line to standard output.
    package func line(_ text: String = "") {
        write(FileHandle.standardOutput, text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n") + "\n")
    }

    /// Prints text to standard output without adding a newline (the QR block).
    package func raw(_ text: String) {
        write(FileHandle.standardOutput, text)
    }

    /// Prints one line to standard error.
    package func error(_ text: String) {
        write(FileHandle.standardError, prefix + text + "\n")
    }

    /// Prints a question and leaves the cursor after it, until ``answered(echo:)``.
    package func ask(_ question: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data(question.utf8))
            openQuestion = question
        }
    }

    /// Ends the open question's line with `echo` (the piped answer and a newline, or just a
    /// newline; nothing when a terminal echoed the typed line itself). Nothing when the
    /// question was abandoned meanwhile.
    package func answered(echo: String) {
        lock.withLock {
            guard openQuestion != nil else { return }
            FileHandle.standardOutput.write(Data(echo.utf8))
            openQuestion = nil
        }
    }

    /// Ends the open question's line without an answer, so the lines that follow (the
    /// transfer being cancelled) are not followed by the question again.
    func abandonQuestion() {
        lock.withLock {
            guard openQuestion != nil else { return }
            FileHandle.standardOutput.write(Data("\n".utf8))
            openQuestion = nil
        }
    }

    private func write(_ handle: FileHandle, _ text: String) {
        lock.withLock {
            guard let question = openQuestion else { return handle.write(Data(text.utf8)) }
            FileHandle.standardOutput.write(Data("\n".utf8))
            handle.write(Data(text.utf8))
            FileHandle.standardOutput.write(Data(question.utf8))
        }
    }
}
