/// The help text of every command. Kept next to each other so they read as one manual.
enum HelpText {
    static let commands = ["demo", "send", "receive", "accounts", "inspect", "qr", "vectors", "bench", "help"]

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
          accounts  List the accounts in a receiver's store (never a password).
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
        case "accounts": accounts
        case "inspect": inspect
        case "qr": qr
        case "bench": bench
        case "vectors": vectors
        case "help": "Usage: handoff help [<command>]\n\nShows the overview, or the help of one command."
        default: nil
        }
    }

    static let demo = """
        Usage: handoff demo [--yes] [--relay] [--store DIR] [--ecc L|M|Q|H] [--qr-style ansi|light|dark]

        Runs a real transfer of a demo account between two separate processes on this machine:
        'handoff send' and 'handoff receive', talking over TCP on 127.0.0.1. You see the QR code
        and the transfer code, the same short code on both sides, the confirmations, the
        receiver logging in to a local IMAP server (a throwaway Dovecot) over TLS, and at the
        end the imported account. The demo password is random and never shown. The transfer
        code reaches the receiving process on its standard input, never its command line.

        Options:
          --yes          Answer both sides automatically: the demo types the code each side
                         shows into the other. Without it, each side asks you.
          --relay        Start Debian's transit relay (twistd3 transitrelay, from the
                         package magic-wormhole-transit-relay) on 127.0.0.1 and send the
                         transfer through it: the code names only the relay.
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
          --address IPV4         Listen on this address of this machine and advertise it in
                                 the QR (default 127.0.0.1). Any address outside 127.0.0.0/8
                                 needs --lan; 0.0.0.0 is refused.
          --lan                  Allow a LAN address with --address: other machines on the
                                 network can then connect.
          --port N               Listen on this port (default: any free port).
          --relay HOST:PORT      Also name a magic-wormhole transit relay in the code and wait
                                 there too, for a receiving device that cannot reach this
                                 machine (another network, client isolation). The relay sees
                                 only encrypted bytes. HOST is a name or IPv4 address of at
                                 most 42 characters (33 beside a --lan address).
          --relay-only           Name only the relay in the code, not this machine's address.
          --lifetime SECONDS     How long the code is valid, 30 to 600 (default 180).
          --ecc LEVEL            QR error correction: L, M (default), Q or H.
          --svg FILE, --png FILE Also write the QR code to these image files.
          --qr-style S           ansi (default), light or dark.
          --no-qr                Print only the transfer code, no QR drawing.

        Nothing is confirmed without you: to the code question, type the code the receiving
        device shows (or answer yes if it matches), no if it differs, or cancel; then approve
        sending the password with yes. Until the transfer ends, the transfer code is a secret:
        never put it on a command line. Ctrl-C cancels the transfer and tells the other device;
        after the password left, it only stops waiting for the receipt (exit code 71).
        """

    static let receive = """
        Usage: handoff receive [--store DIR] [--credentials keyring|files] [--code-file FILE] [--on-conflict replace|keep|cancel]

        Reads the transfer code (AH:...) from the first line of standard input (paste it when
        asked, or pipe it in) or from --code-file FILE, connects to the sending device it
        names, shows the short code and the offered account, asks you to confirm both, then
        stores the account. The code is never taken from the command line: until the transfer
        ends it is a secret, and other users of this computer can read command lines. The
        store is checked before the code is asked for.

        The store is a directory (default ./handoff-store, created with mode 0700; an existing
        one must be yours and closed to other users): accounts.sqlite holds the settings (no
        password column). The passwords go to your desktop's keyring (the Secret Service:
        GNOME Keyring, KWallet, KeePassXC) when one is reachable, or, with --credentials
        files, to credentials/ in the store, one file per account (mode 0600). A store keeps
        the place it was created with. An import is a transaction: the password is staged
        under a fresh name, the account is checked by logging in to its mail server over TLS,
        then the settings and the password become the account's together, or nothing changes.
        An interrupted import is finished or undone the next time the store is opened.

        An account that is already in the store (the same link ID, or the same address on the
        same server) is never replaced silently: you choose before the password is sent, and
        the old account stays usable until the new one is committed. A code works once on this
        device: the store remembers the codes it used.

        Options:
          --store DIR             Where to store the account (default ./handoff-store).
          --credentials WHERE     Where a new store keeps passwords: keyring (the default:
                                  the desktop's Secret Service keyring) or files (0600
                                  files in the store directory).
          --code-file FILE        Read the transfer code from the first line of FILE.
          --on-conflict CHOICE    What to do with a stored account like the offered one:
                                  replace, keep (both; not for the same link ID) or cancel,
                                  instead of asking.
          --ca-file FILE          Trust the certificate authorities in FILE (PEM) for the
                                  mail server's TLS certificate instead of the system's.
          --allow-plaintext       Log in without TLS when the server offers none (never by
                                  default: the password would cross the network readable).
          --no-validation         Keep the account without logging in to its server (for
                                  offline tests); the sending device is told it was imported.

        To the code question, type the code the sending device shows (or answer yes if it
        matches), no if it differs, or cancel.

        A code may name the sending device's address, a transit relay, or both. The receiver
        connects directly first and, when that fails or gets no answer within 2 seconds, also
        through the relay; it says where it connects. The relay only copies encrypted bytes.
        """

    static let accounts = """
        Usage: handoff accounts [--store DIR] [--credentials keyring|files]

        Lists the accounts in a receiver's store (default ./handoff-store): each account's
        local ID and settings, link ID included. Passwords are never shown. An import that was
        interrupted is finished or undone first; a store you cannot write to is listed as it
        is, with a note when such an import is waiting for a writable store.

        Options:
          --store DIR             The store to list (default ./handoff-store).
          --credentials WHERE     Where the store keeps passwords (keyring or files); a store
                                  remembers it, so this is only checked against its record.
        """

    static let inspect = """
        Usage: handoff inspect [--code-file FILE]

        Decodes the transfer code (AH:..., from the first line of standard input or of
        --code-file FILE, never from the command line) and prints its session fields and the
        time left, or the exact reason it is invalid. The QR secret (the commitment) is not
        printed. Exits with 66 when the code has expired and 65 when it is invalid.
        """

    static let qr = """
        Usage: handoff qr [--code-file FILE] [--terminal] [--svg FILE] [--png FILE] [--ecc L|M|Q|H] [--scale N]

        Draws the transfer code (AH:..., from the first line of standard input or of
        --code-file FILE, never from the command line) as a QR code: on the terminal (the
        default when no file is given, or with --terminal), as an SVG, as a PNG. The images
        hold the code, so they are created readable by you only (mode 0600).

        Options:
          --code-file FILE  Read the transfer code from the first line of FILE.
          --svg FILE        Write an SVG image (a new file, or a regular file it replaces).
          --png FILE        Write a PNG image (1-bit grayscale), likewise.
          --terminal        Also draw it on the terminal when writing files.
          --ecc LEVEL       Error correction: L, M (default), Q or H.
          --scale N         Pixels per module in the images, 1 to 64 (default 8).
          --qr-style S      Terminal colours: ansi (default), light or dark.
        """

    static var bench: String { BenchCommand.help }

    static let vectors = """
        Usage: handoff vectors --out DIR

        Regenerates every test-vector file (the committed Vectors/ folder) into DIR from fixed
        seeds and a fixed clock. Running it twice gives byte-identical files; the test suite
        fails when the committed vectors differ from a regeneration.
        """
}
