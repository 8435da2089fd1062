import AccountHandoff
import AccountHandoffTransport
import Foundation

/// `handoff send --relay HOST:PORT [--relay-only]` (Spec 11.7, 11.8): the code names a
/// magic-wormhole transit relay too (or only the relay), and the sender keeps a connection
/// waiting there; `handoff receive` follows the code, direct first, and says where it connects.
enum RelayOption {
    /// What the person asked for.
    struct Choice {
        let relay: TCPRendezvous.Relay
        /// The code names only the relay, not this machine's address.
        let relayOnly: Bool
    }

    /// `--relay HOST:PORT` and `--relay-only`, checked: a lowercase DNS name or dotted IPv4
    /// address of at most 42 characters (the code packs it, Spec 11.2), and a port 1...65535.
    static func choice(_ parsed: ParsedArguments, command: String) throws(CLIError) -> Choice? {
        guard let text = parsed.value("--relay") else {
            if parsed.has("--relay-only") { throw .usage("--relay-only needs --relay HOST:PORT.", command: command) }
            return nil
        }
        let usage = CLIError.usage("The option --relay takes HOST:PORT: a host name or IPv4 address of at most \(RelayHost.maximumLength) characters (letters, digits, '-' and '.'), and a port from 1 to 65535, such as relay.example.org:4001.", command: command)
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port != 0 else { throw usage }
        guard let host = try? RelayHost(text[..<colon].lowercased()), let relay = TCPRendezvous.Relay(host: host, port: port) else { throw usage }
        return Choice(relay: relay, relayOnly: parsed.has("--relay-only"))
    }

    /// The sentence that says where the code sends receivers.
    static func sentence(_ listening: ListeningAddressPolicy.Choice, _ choice: Choice?) -> String {
        guard let choice else { return listening.description }
        if choice.relayOnly {
            return "The code will name only the relay \(choice.relay), which both devices must reach; this machine's address is left out."
        }
        return listening.description + " It also names the relay \(choice.relay), for a receiving device that cannot reach this address."
    }

    /// Why the listener could not be made, as a sentence.
    static func listenFailure(_ error: TransportError, address: IPv4Address, port: Int) -> CLIError {
        if case .unsupportedRendezvous(.tooLong(let count)) = error {
            return CLIError("The address and the relay need \(count) bytes, more than the 32 a code can carry; choose a shorter relay host name (at most 33 characters beside a network address, 39 beside 127.0.0.1, 42 with --relay-only).", exitCode: .usage)
        }
        return CLIError("Cannot listen on \(address):\(port): \(error.description)", exitCode: .failure)
    }

    /// Prints what the listener does at the relay, once per change that matters: waiting
    /// there, a relay that cannot be reached (once, until it waits there again), and a paired
    /// connection that broke the framing. Nothing is printed before `lines` was told the
    /// code is on the screen, so the first line comes right after it.
    static func reportStatus(of listener: FrameListener, relay: TCPRendezvous.Relay, lines: RelayStatusLines) -> Task<Void, Never> {
        Task {
            for await status in listener.relayStatus {
                switch status {
                case .waiting(let address):
                    lines.note("Waiting at the relay \(ConnectionRoute.relay(relay, address: address).description.dropFirst("relay ".count)) for the receiving device.")
                case .unreachable(let error):
                    lines.note(unreachable(relay, error))
                case .garbledConnection:
                    lines.noteOnce("A connection through the relay \(relay) brought bytes that are not this transfer's messages (the relay changed what it copied, or someone who saw the code sent them), so it was closed; this device goes on waiting for the receiving device. If the receiving device says the same of the relay, start again with another relay.")
                case .paired, .idle:
                    break
                }
            }
        }
    }

    /// Why this device cannot wait at its relay right now, from this device's side (Spec 11.7).
    private static func unreachable(_ relay: TCPRendezvous.Relay, _ error: TransportError) -> String {
        switch error {
        case .connectionRefused:
            "The relay \(relay) cannot be reached right now: nothing accepts connections at its address (it may be down or restarting, or --relay may name the wrong port). This device tries again every second."
        case .networkUnreachable:
            "The relay \(relay) cannot be reached right now: this computer has no route to its address (check this computer's network). This device tries again every second."
        case .timedOut:
            "The relay \(relay) cannot be reached right now: it did not answer in time. This device tries again every second."
        case .relayHostNotFound(let host):
            "The relay \(relay) cannot be found right now: the name \(host) has no IPv4 address (check this computer's network and the name given to --relay). This device tries again every second."
        case .relayClosed, .closedByPeer:
            "The relay \(relay) closed this device's waiting connection before a receiving device joined (it may have restarted, or refused the request). This device waits there again every second."
        case .system, .addressUnavailable, .oversizedFrame, .emptyFrame, .unsupportedRendezvous, .garbledByRelay, .relayNotPaired,
             .directAddressRefused, .closedLocally, .notAHandoffSender, .codeRenewed, .notJoinedInTime, .evicted, .unspecifiedAddress:
            "This device cannot wait at the relay \(relay) right now (\(error.description.dropLast())). It tries again every second."
        }
    }
}

/// The sender's relay lines (Spec 11.7), in their place: held until the code is on the screen,
/// then printed as the relay's state changes, each state once.
final class RelayStatusLines: @unchecked Sendable {
    // Safety of @unchecked Sendable: every field but `console` is only touched under `lock`.
    private let console: Console
    private let lock = NSLock()
    private var codeShown = false
    /// Before the code is shown: the newest state, and what happened meanwhile.
    private var heldState: String?
    private var heldEvents: [String] = []
    private var lastState: String?
    private var saidOnce: Set<String> = []

    init(console: Console) { self.console = console }

    /// The relay's state now: said when it differs from the last state said.
    func note(_ line: String) {
        let say = lock.withLock { () -> Bool in
            guard line != lastState else { return false }
            lastState = line
            guard codeShown else {
                heldState = line
                return false
            }
            return true
        }
        if say { console.line(line) }
    }

    /// Something that happened at the relay: said the first time only.
    func noteOnce(_ line: String) {
        let say = lock.withLock { () -> Bool in
            guard saidOnce.insert(line).inserted else { return false }
            guard codeShown else {
                heldEvents.append(line)
                return false
            }
            return true
        }
        if say { console.line(line) }
    }

    /// The code's block is on the screen: what was held follows it now.
    func codeIsShown() {
        let lines = lock.withLock { () -> [String] in
            codeShown = true
            defer {
                heldState = nil
                heldEvents.removeAll()
            }
            return (heldState.map { [$0] } ?? []) + heldEvents
        }
        lines.forEach { console.line($0) }
    }
}
