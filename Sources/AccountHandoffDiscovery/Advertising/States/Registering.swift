/// The service of `nameplate` is registered and the daemon probes its name.
struct Registering: Sendable {
    let nameplate: DiscoveryNameplate
    /// The nameplates that collided before this one.
    let collided: Collisions

    func handle(_ event: AdvertisingEvent) -> (SenderAdvertising.State, [AdvertisingAction]) {
        switch event {
        case .established(let reported) where reported == nameplate:
            return (.established(Established(nameplate: nameplate, collided: collided)), [.showCode(nameplate)])
        case .collision(let reported) where reported == nameplate:
            return collided.after(nameplate)
        case .established, .collision, .codeDrawn:
            return (.registering(self), [])
        case .failed(let error):
            return Ended.after(error)
        case .withdraw:
            return Ended.withdrawn(registered: true)
        }
    }
}
