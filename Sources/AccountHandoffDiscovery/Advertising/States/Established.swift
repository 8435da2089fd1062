/// The service of `nameplate` is on the network and its code is shown.
struct Established: Sendable {
    let nameplate: DiscoveryNameplate
    /// The nameplates that collided before this one.
    let collided: Collisions

    func handle(_ event: AdvertisingEvent) -> (SenderAdvertising.State, [AdvertisingAction]) {
        switch event {
        case .collision(let reported) where reported == nameplate:
            // Another device claims the name now: the shown code could lead a receiver to it.
            return collided.after(nameplate)
        case .established, .collision, .codeDrawn:
            return (.established(self), [])
        case .failed(let error):
            return Ended.after(error)
        case .withdraw:
            return Ended.withdrawn(registered: true)
        }
    }
}
