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
    /// there, and a relay that cannot be reached (once, until it waits there again).
    static func reportStatus(of listener: FrameListener, relay: TCPRendezvous.Relay, console: Console) -> Task<Void, Never> {
        Task {
            var lastLine: String?
            for await status in listener.relayStatus {
                let line: String? = switch status {
                case .waiting(let address):
                    "Waiting at the relay \(ConnectionRoute.relay(relay, address: address).description.dropFirst("relay ".count)) for the receiving device."
                case .unreachable(let error):
                    "The relay \(relay) cannot be reached right now (\(error.description.dropLast())); trying again every second."
                case .paired, .idle:
                    nil
                }
                guard let line, line != lastLine else { continue }
                lastLine = line
                console.line(line)
            }
        }
    }
}
