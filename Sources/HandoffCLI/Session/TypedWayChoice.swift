import AccountHandoff
import AccountHandoffDiscovery
import AccountHandoffTransport

/// Whether `handoff send` offers the typed way beside the QR (Spec 11.10), and if not, the
/// sentence that says why and what to do: the local network's route needs a listening address
/// other devices can reach (`--address ADDRESS --lan`) and a running DNS-SD daemon.
struct TypedWayChoice {
    /// The announcer the listener announces each nameplate through; `nil`: not offered.
    let announcer: DNSSDTypedAnnouncer?
    /// Why the typed way is not offered, as a whole sentence; `nil` when it is.
    let unavailable: String?

    /// The routes the session offers.
    var routes: Set<TypedRoute> { announcer == nil ? [] : [.localNetwork] }

    /// Decides for a sender that listens as `choice` says.
    static func choose(_ choice: ListeningAddressPolicy.Choice) async -> TypedWayChoice {
        guard choice.reach != .thisMachine else {
            return TypedWayChoice(announcer: nil, unavailable: "Typing a code is not offered: this device listens on \(choice.address), which only this computer reaches; to let a device on your network type a short code instead of scanning, start again with --address ADDRESS --lan.")
        }
        if let failure = await DNSSDAvailability.check() {
            return TypedWayChoice(announcer: nil, unavailable: "Typing a code is not offered, because other devices could not find this one on the network. \(failure.description)")
        }
        return TypedWayChoice(announcer: DNSSDTypedAnnouncer.platform(), unavailable: nil)
    }

    /// Says when the announcement fails later: the typed code can no longer be found, the QR
    /// still works. Runs until the announcer stops.
    func reportFailures(console: Console) -> Task<Void, Never>? {
        guard let announcer else { return nil }
        return Task {
            for await status in announcer.status {
                guard case .failed(let error) = status else { continue }
                console.error("Receiving devices can no longer find the typed code on this network; the QR code still works. \(error.description)")
            }
        }
    }
}
