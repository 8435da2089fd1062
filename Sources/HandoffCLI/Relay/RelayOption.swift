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
            if parsed.has("--relay-only") { throw .usage(sentenceCatalog.sentence("relay.usage.relayOnly", in: .cli), command: command) }
            return nil
        }
        let usage = CLIError.usage(sentenceCatalog.sentence("relay.usage.format", .number(RelayHost.maximumLength), in: .cli), command: command)
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port != 0 else { throw usage }
        guard let host = try? RelayHost(text[..<colon].lowercased()), let relay = TCPRendezvous.Relay(host: host, port: port) else { throw usage }
        return Choice(relay: relay, relayOnly: parsed.has("--relay-only"))
    }

    /// The sentence that says where the code sends receivers.
    static func sentence(_ listening: ListeningAddressPolicy.Choice, _ choice: Choice?) -> String {
        guard let choice else { return ConnectionWords.sentence(listening) }
        if choice.relayOnly {
            return sentenceCatalog.sentence("relay.namesOnlyRelay", .text("\(choice.relay)"), in: .cli)
        }
        return sentenceCatalog.sentence("relay.alsoNamesRelay", .text(ConnectionWords.sentence(listening)), .text("\(choice.relay)"), in: .cli)
    }

    /// Why the listener could not be made, as a sentence.
    static func listenFailure(_ error: TransportError, address: IPv4Address, port: Int) -> CLIError {
        if case .unsupportedRendezvous(.tooLong(let count)) = error {
            return CLIError(sentenceCatalog.sentence("relay.tooLong", .number(count), in: .cli), exitCode: .usage)
        }
        return CLIError(sentenceCatalog.sentence("relay.cannotListen", .text("\(address)"), .number(port), .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
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
                    let route = ConnectionRoute.relay(relay, address: address).description.dropFirst("relay ".count)
                    lines.note(sentenceCatalog.sentence("relay.waiting", .text(String(route)), in: .cli))
                case .unreachable(let error):
                    lines.note(unreachable(relay, error))
                case .garbledConnection:
                    lines.noteOnce(sentenceCatalog.sentence("relay.garbled", .text("\(relay)"), in: .cli))
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
            sentenceCatalog.sentence("relay.unreachable.refused", .text("\(relay)"), in: .cli)
        case .networkUnreachable:
            sentenceCatalog.sentence("relay.unreachable.network", .text("\(relay)"), in: .cli)
        case .timedOut:
            sentenceCatalog.sentence("relay.unreachable.timedOut", .text("\(relay)"), in: .cli)
        case .relayHostNotFound(let host):
            sentenceCatalog.sentence("relay.unreachable.hostNotFound", .text("\(relay)"), .text("\(host)"), in: .cli)
        case .relayClosed, .closedByPeer:
            sentenceCatalog.sentence("relay.unreachable.closed", .text("\(relay)"), in: .cli)
        case .system, .addressUnavailable, .oversizedFrame, .emptyFrame, .unsupportedRendezvous, .garbledByRelay, .relayNotPaired,
             .directAddressRefused, .closedLocally, .notAHandoffSender, .codeRenewed, .notJoinedInTime, .evicted, .unspecifiedAddress:
            sentenceCatalog.sentence("relay.unreachable.other", .text("\(relay)"), .text(String(error.sentence(in: .cli).dropLast())), in: .cli)
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
