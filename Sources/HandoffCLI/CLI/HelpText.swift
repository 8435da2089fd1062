import AccountHandoff

/// The overview and the per-command help, generated from the commands' manuals
/// (``CommandManual``), so the help names exactly the options each command accepts.
enum HelpText {
    static let manuals: [CommandManual] = [.send, .receive, .accounts, .inspect, .qr, .help]
    static var commands: [String] { manuals.map(\.command) }

    /// `handoff --version`.
    static var version: String {
        "handoff \(HandoffVersion.release) (protocol version \(SessionPayload.currentVersion))"
    }

    static var exitCodes: String {
        "Exit codes:\n" + ExitCode.allCases.map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n")
    }

    static var overview: String {
        """
        handoff: move a mail account from one device to another with a QR code, end to end encrypted.

        Usage: handoff <command> [options]
               handoff help <command> | handoff <command> --help | handoff --version

        Commands:
          send      Offer an account: show a QR code, then type the code the receiving device shows.
          receive   Use a transfer code to import the offered account into a local store.
          accounts  List the accounts in a receiver's store (never a password).
          inspect   Decode a transfer code and show its fields and its expiry.
          qr        Draw a transfer code as a terminal QR code, an SVG or a PNG.
          help      Show the help of a command: handoff help <command>

        The password never appears on the command line, in the environment or in any output.

        \(exitCodes)
        """
    }

    /// The help of `command` followed by the exit codes; `nil` for an unknown command.
    static func text(for command: String) -> String? {
        manuals.first { $0.command == command }.map { $0.text + "\n\n" + exitCodes }
    }
}

/// The release of this program.
enum HandoffVersion {
    static let release = "3.0.0"
}
