import HandoffCLI

/// The developer tool's commands that have no file of their own (`bench` is in ``BenchManual``).
extension CommandManual {
    /// `handoff-dev demo`.
    static let demo = CommandManual(
        command: "demo",
        about: [
            "Runs a real transfer of a demo account between two separate processes on this machine: 'handoff send' and 'handoff receive', talking over TCP on 127.0.0.1. You see the QR code and the transfer code, the six-digit code the receiving side shows and the sending side types, the offer, both login-password gates (a throwaway PAM setup whose password is demo-login; your real login is not touched), the receiver logging in to a local IMAP server (a throwaway Dovecot) over TLS, and at the end the imported account. The demo password is random and never shown. The transfer code reaches the receiving process on its standard input, never its command line.",
        ],
        options: [
            CommandOption("--yes", nil,
                "Answer both sides automatically: the demo types the code the receiving side shows into the sending side, accepts, and gives each gate the demo login password. Without it, each side asks you."),
            CommandOption("--relay", nil,
                "Start Debian's transit relay (twistd3 transitrelay, from the package magic-wormhole-transit-relay) on 127.0.0.1 and send the transfer through it: the code names only the relay."),
            CommandOption("--typed", nil,
                "Pair by the short typed code instead of the QR: the two processes run in two network namespaces of their own, each with its own Avahi daemon, the sender announces its code's first three digits there, and the demo types the code it shows into the receiving side, which finds the sender by DNS-SD. Needs root (to make the namespaces) and Debian's avahi-daemon; runs both sides with --no-local-auth and --no-validation (the namespaces reach no PAM setup or mail server of the demo)."),
            CommandOption("--store", "DIR", "Keep the receiver's store in DIR (default: a temporary directory that is removed at the end)."),
            .ecc,
            .qrStyle,
        ])

    /// `handoff-dev vectors`.
    static let vectors = CommandManual(
        command: "vectors",
        required: ["--out DIR"],
        about: [
            "Regenerates every test-vector file (the committed Vectors/ folder) into DIR from fixed seeds and a fixed clock. Running it twice gives byte-identical files; the test suite fails when the committed vectors differ from a regeneration.",
        ],
        options: [CommandOption("--out", "DIR", "The folder to write the vector files into (required).")])
}
