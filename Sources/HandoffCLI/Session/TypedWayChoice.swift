import AccountHandoff
import AccountHandoffDiscovery
import AccountHandoffTransport

/// Whether `handoff send` offers the typed way beside the QR (Spec 11.10), and if not, the
/// sentence that says why and what to do: the local network's route needs a listening address
/// other devices can reach (`--address ADDRESS --lan`) and a running DNS-SD daemon.
package struct TypedWayChoice {
    /// The announcer the listener announces each nameplate through; `nil`: not on the local network.
    let announcer: DNSSDTypedAnnouncer?
    /// Whether the typed way waits at the relay too (`--relay`, Spec 12.8).
    let viaRelay: Bool
    /// Why the typed way is not offered on the local network, as a whole sentence; `nil` when it is.
    let unavailable: String?

    /// The routes the session offers.
    var routes: Set<TypedRoute> { Set((announcer == nil ? [] : [.localNetwork]) + (viaRelay ? [.relay] : [])) }

    /// Decides for a sender that listens as `choice` says, with `relay` if it names one.
    static func choose(_ choice: ListeningAddressPolicy.Choice, relay: TCPRendezvous.Relay?) async -> TypedWayChoice {
        let viaRelay = relay != nil
        let relayNote = relay.map { sentenceCatalog.sentence("typed.relayNote", .text("\($0)"), in: .cli) } ?? ""
        guard choice.reach != .thisMachine else {
            return TypedWayChoice(announcer: nil, viaRelay: viaRelay, unavailable: sentenceCatalog.sentence("typed.notOnThisMachine", .text("\(choice.address)"), .text(relayNote), in: .cli))
        }
        if let failure = await DNSSDAvailability.check() {
            return TypedWayChoice(announcer: nil, viaRelay: viaRelay, unavailable: sentenceCatalog.sentence("typed.noDiscovery", .text(failure.sentence(in: .cli)), .text(relayNote), in: .cli))
        }
        return TypedWayChoice(announcer: DNSSDTypedAnnouncer.platform(), viaRelay: viaRelay, unavailable: nil)
    }

    /// Says when the announcement fails later: the typed code can no longer be found, the QR
    /// still works. Runs until the announcer stops.
    func reportFailures(console: Console) -> Task<Void, Never>? {
        guard let announcer else { return nil }
        return Task {
            for await status in announcer.status {
                guard case .failed(let error) = status else { continue }
                console.error(sentenceCatalog.sentence("typed.announceFailed", .text(error.sentence(in: .cli)), in: .cli))
            }
        }
    }
}
