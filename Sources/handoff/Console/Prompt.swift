/// A yes/no/cancel question asked on the terminal. Answers come from ``StandardInput``; the
/// demo recognises a prompt by ``marker`` at the end of its text.
enum Prompt {
    /// Ends every question; the cursor waits after it.
    static let marker = "[yes/no/cancel] "

    /// How a person answered.
    enum Decision: Equatable {
        case yes, no, cancel
    }

    /// Reads `yes`/`y`, `no`/`n`, `cancel`/`c` (any case); `nil` for anything else.
    static func decision(_ answer: String) -> Decision? {
        switch answer.lowercased() {
        case "y", "yes": .yes
        case "n", "no": .no
        case "c", "cancel": .cancel
        default: nil
        }
    }

    /// Prints a question and leaves the cursor after the marker.
    static func ask(_ question: String, console: Console) {
        console.raw(console.prefix + question + " " + marker)
    }
}
