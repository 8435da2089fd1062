import AccountHandoff

/// The overview and the per-command help, generated from the commands' manuals
/// (``CommandManual``), so the help names exactly the options each command accepts.
enum HelpText {
    static let manuals: [CommandManual] = [.send, .receive, .accounts, .inspect, .qr, .help]
    static var commands: [String] { manuals.map(\.command) }

    /// `handoff --version`.
    static var version: String {
        sentenceCatalog.sentence("help.version", .text(HandoffVersion.release), .number(SessionPayload.currentVersion), in: .cli)
    }

    static var exitCodes: String {
        sentenceCatalog.sentence("help.exitCodes", in: .cli) + "\n" + ExitCode.allCases.map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n")
    }

    static var overview: String {
        sentenceCatalog.sentence("help.overview", in: .cli) + "\n\n" + exitCodes
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
