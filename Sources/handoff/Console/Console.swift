import Foundation

/// Everything the CLI prints goes through here: whole lines to standard output, errors to
/// standard error, written at once (unbuffered) so a pipe reader sees each line when it is
/// printed. Thread-safe, because the demo prints from reader threads.
///
/// - Warning: Never pass a secret. There is no code path that prints a password: it only
///   ever lives in `SecretBytes`.
final class Console: @unchecked Sendable {
    // Safety of @unchecked Sendable: writes are serialised by `lock`.
    private let lock = NSLock()
    /// Prepended to every line (the demo's children have none; the demo labels them itself).
    let prefix: String

    init(prefix: String = "") {
        self.prefix = prefix
    }

    /// Prints one line to standard output.
    func line(_ text: String = "") {
        write(FileHandle.standardOutput, text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n") + "\n")
    }

    /// Prints text to standard output without adding a newline (prompts, the QR block).
    func raw(_ text: String) {
        write(FileHandle.standardOutput, text)
    }

    /// Prints one line to standard error.
    func error(_ text: String) {
        write(FileHandle.standardError, prefix + text + "\n")
    }

    private func write(_ handle: FileHandle, _ text: String) {
        lock.lock()
        defer { lock.unlock() }
        handle.write(Data(text.utf8))
    }
}
