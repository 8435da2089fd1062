/// The first line an IMAP client reads: the server's greeting (RFC 9051 7.1: `* OK`,
/// `* PREAUTH` or `* BYE`). libcurl hands every response line to its header callback; this
/// keeps only what kind the first one was, never its text.
final class ServerGreeting {
    /// What the server's first line was.
    enum Kind: Equatable {
        /// No line arrived.
        case none
        /// An IMAP greeting.
        case imap
        /// A line that no IMAP server sends first (for example an HTTP status line or an
        /// SMTP or POP3 greeting).
        case other
    }

    private(set) var kind = Kind.none

    /// Classifies `line` when it is the first one.
    func received(_ line: UnsafeRawBufferPointer) {
        guard kind == .none else { return }
        let greetings = ["* OK", "* PREAUTH", "* BYE"].map { Array($0.utf8) }
        let head = line.prefix(9).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        kind = greetings.contains { head.starts(with: $0) } ? .imap : .other
    }
}
