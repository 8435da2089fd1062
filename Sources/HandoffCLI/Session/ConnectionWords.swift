import AccountHandoff
import AccountHandoffTransport

/// The transport's status sentences in the CLI's language: where the code sends receivers,
/// and where the receiver's connect goes (Spec 11.8). Rendered from the typed values; the
/// cases whose sentence embeds another of the transport's keep the transport's own words.
enum ConnectionWords {
    /// What the code will advertise and who can reach it.
    static func sentence(_ choice: ListeningAddressPolicy.Choice) -> String {
        let address = SentenceArgument.text("\(choice.address)")
        let interface = SentenceArgument.text(choice.interfaceName ?? "?")
        return switch choice.reach {
        case .thisMachine: sentenceCatalog.sentence("listen.thisMachine", address, in: .cli)
        case .localNetwork: sentenceCatalog.sentence("listen.localNetwork", address, interface, in: .cli)
        case .beyondLocalNetwork: sentenceCatalog.sentence("listen.beyondLocalNetwork", address, interface, in: .cli)
        }
    }

    /// One progress line of the receiver's connect.
    static func sentence(_ progress: ConnectionProgress) -> String {
        switch progress {
        case .connectingDirectly(let endpoint):
            return sentenceCatalog.sentence("connect.directly", .text("\(endpoint)"), in: .cli)
        case .directFailed(let endpoint, let error):
            return sentenceCatalog.sentence("connect.directFailed", .text("\(endpoint)"), .text(error.sentence(in: .cli)), in: .cli)
        case .directSlow(let endpoint, let headStart):
            return sentenceCatalog.sentence("connect.directSlow", .text("\(endpoint)"), .text(Durations.text(Int(headStart.components.seconds))), in: .cli)
        case .connectingThroughRelay(let relay, let address):
            return sentenceCatalog.sentence("connect.throughRelay", .text("\(ConnectionRoute.relay(relay, address: address))"), in: .cli)
        case .connected(.direct(let endpoint)):
            return sentenceCatalog.sentence("connect.connectedDirectly", .text("\(endpoint)"), in: .cli)
        case .connected(let route):
            return sentenceCatalog.sentence("connect.connectedThroughRelay", .text("\(route)"), in: .cli)
        case .directAddressSkipped, .relayRetrying:
            return progress.sentence(in: .cli)
        }
    }
}
