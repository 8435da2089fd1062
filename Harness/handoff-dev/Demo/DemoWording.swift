import HandoffCLI

/// What the demo shows instead of its children's sentences that are not true inside the demo:
/// the demo hands the code over and relays every answer itself, accepts no options of
/// `send`, and runs the gate under a throwaway PAM setup whose password is ``DemoGate/password``.
enum DemoWording {
    /// The line to show for a line `line` of a child; `nil` leaves it out.
    static func shown(_ line: String) -> String? {
        if line == CodeDrawing.pasteOnThisComputer {
            return "(The demo hands this code to its receiving process itself.)"
        }
        if line == reachingAnotherComputer {
            return "(The demo runs both sides on this computer; to use two computers, run 'handoff send' and 'handoff receive' yourself, as the README's 'Try the two sides by hand' shows.)"
        }
        if line.hasPrefix(PrintedMarkers.typedWayNotOnThisMachine) {
            return "(This demo pairs by the QR's code on this computer; 'handoff-dev demo --typed' shows typing the short code instead.)"
        }
        // The demo relays the person's answers, so the children's piped input is no concern.
        if PipedAnswers.allCases.contains(where: { $0.warning == line }) { return nil }
        return line
    }

    /// The sender's advice for another computer, as the child prints it on this computer.
    private static let reachingAnotherComputer = CodeDrawing.reachingAnotherComputer()

    /// The gate's question, asked of the person at the demo.
    static let loginQuestion = "Login password for the demo's gate: type demo-login, the password of its throwaway PAM setup, not your own (not shown) " + TerminalPAMConversation.marker

    /// The gate's question, answered by the demo itself (`--yes`).
    static let loginQuestionAnswered = "Login password for the demo's gate (demo-login, the password of its throwaway PAM setup, not your own) " + TerminalPAMConversation.marker + "(typed by the demo, not shown)"
}
