/// The help text of every command. Kept next to each other so they read as one manual.
enum HelpText {
    static let commands = ["demo", "send", "receive", "inspect", "qr", "vectors", "bench", "help"]

    static var exitCodes: String {
        "Exit codes:\n" + ExitCode.allCases.map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n")
    }

    static var overview: String {
        """
        handoff: move a mail account from one device to another with a QR code, end to end encrypted.

        Usage: handoff <command> [options]

        Commands:
          demo      Run a whole transfer between two processes on this machine (start here).
          send      Offer an account: show a QR code and the transfer code, then wait for a receiver.
          receive   Use a transfer code to import the offered account into a local store.
          inspect   Decode a transfer code and show its fields and the time left.
          qr        Draw a transfer code as a terminal QR code, an SVG or a PNG.
          vectors   Regenerate the test-vector files: handoff vectors --out DIR
          bench     Time a whole session against its exact libsodium floor, and more.
          help      Show the help of a command: handoff help <command>

        The password never appears on the command line, in the environment or in any output.

        \(exitCodes)
        """
    }

    static func text(for command: String) -> String? {
        switch command {
        case "demo": demo
        case "send": send
        case "receive": receive
        case "inspect": inspect
        case "qr": qr
        case "bench": bench
        case "vectors": vectors
        case "help": "Usage: handoff help [<command>]\n\nShows the overview, or the help of one command."
        default: nil
        }
    }

    static let demo = """
        Usage: handoff demo [--yes] [--store DIR] [--ecc L|M|Q|H] [--qr-style ansi|light|dark]

        Runs a real transfer of a demo account between two separate processes on this machine:
        'handoff send' and 'handoff receive', talking over TCP on 127.0.0.1. You see the QR code
        and the transfer code, the same short code on both sides, the confirmations, and at the
        end the imported account. The demo password is random and never shown.

        Options:
          --yes          Confirm everything automatically. Without it, each side asks you.
          --store DIR    Keep the receiver's store in DIR (default: a temporary directory that
                         is removed at the end).
          --ecc LEVEL    QR error correction: L, M (default), Q or H.
          --qr-style S   ansi (default; black on white on any terminal), light or dark (no
                         colour codes, for light or dark terminal themes).
        """

    static let send = """
        Usage: handoff send --account FILE (--password-stdin | --password-file FILE) [options]

        Offers one account to a receiving device. Shows a QR code and the transfer code, waits
        for the receiver to connect, shows the short code to compare with the other device,
        asks you to confirm it, then asks you to approve sending the password.

        The account file is JSON with these fields (no password):
          {"accountLinkID": "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162", "displayName": "Ada Lovelace",
           "emailAddress": "ada@example.org", "username": "ada", "imapHost": "imap.example.org",
           "imapPort": 993, "imapSecurity": "tls"}
        imapSecurity is "tls" or "startTLS". accountLinkID is the account's identity on every
        device and is kept unchanged by the transfer. A file from a receiver's store works too.

        Options:
          --account FILE         The account's settings (required).
          --password-stdin       Read the password from the first line of standard input
                                 (typing is not echoed on a terminal). Answers to the questions
                                 follow on the next lines.
          --password-file FILE   Read the password from the first line of FILE (mode 0600).
          --yes                  Confirm the code and approve the export automatically.
          --address IPV4         Listen on this address of this machine (default 127.0.0.1).
          --port N               Listen on this port (default: any free port).
          --lifetime SECONDS     How long the code is valid, 30 to 600 (default 180).
          --ecc LEVEL            QR error correction: L, M (default), Q or H.
          --svg FILE, --png FILE Also write the QR code to these image files.
          --qr-style S           ansi (default), light or dark.
          --no-qr                Print only the transfer code, no QR drawing.

        Answer the questions with yes, no (the codes differ, or you do not approve) or cancel.
        Ctrl-C cancels the transfer and tells the other device.
        """

    static let receive = """
        Usage: handoff receive PAYLOAD [--store DIR] [--replace] [--yes]

        Connects to the sending device named in the transfer code PAYLOAD (AH:..., or - to read
        it from the first line of standard input), shows the short code and the offered
        account, asks you to confirm both, then stores the account.

        The store is a directory (default ./handoff-store, created with mode 0700) holding per
        account <AccountLinkID>.json (settings) and <AccountLinkID>.credential (the password),
        both mode 0600 and written atomically. The credential file stands in for the Keychain
        of a real app. This tool does not contact the mail server to validate the account.

        An account that is already in the store is never replaced silently: the import is
        declined before the password is sent, unless you pass --replace.

        Options:
          --store DIR   Where to store the account (default ./handoff-store).
          --replace     Replace an account with the same link ID.
          --yes         Confirm the code and the import automatically.
        """

    static let inspect = """
        Usage: handoff inspect PAYLOAD

        Decodes the transfer code PAYLOAD (AH:..., or - for standard input) and prints its
        session fields and the time left, or the exact reason it is invalid. The QR secret
        (the challenge) is not printed. Exits with 66 when the code has expired and 65 when it
        is invalid.
        """

    static let qr = """
        Usage: handoff qr PAYLOAD [--terminal] [--svg FILE] [--png FILE] [--ecc L|M|Q|H] [--scale N]

        Draws the transfer code PAYLOAD (AH:..., or - for standard input) as a QR code: on the
        terminal (the default when no file is given, or with --terminal), as an SVG, as a PNG.

        Options:
          --svg FILE     Write an SVG image.
          --png FILE     Write a PNG image (1-bit grayscale).
          --terminal     Also draw it on the terminal when writing files.
          --ecc LEVEL    Error correction: L, M (default), Q or H.
          --scale N      Pixels per module in the images, 1 to 64 (default 8).
          --qr-style S   Terminal colours: ansi (default), light or dark.
        """

    static var bench: String { BenchCommand.help }

    static let vectors = """
        Usage: handoff vectors --out DIR

        Regenerates every test-vector file (the committed Vectors/ folder) into DIR from fixed
        seeds and a fixed clock. Running it twice gives byte-identical files; the test suite
        fails when the committed vectors differ from a regeneration.
        """
}
