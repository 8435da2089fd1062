/// The last nameplate collided; the caller draws a new code.
struct AwaitingCode: Sendable {
    /// The nameplates that collided so far.
    let collided: Collisions

    func handle(_ event: AdvertisingEvent) -> (SenderAdvertising.State, [AdvertisingAction]) {
        switch event {
        case .codeDrawn(let nameplate) where collided.contains(nameplate):
            // Drawn again: it is taken (or was, a moment ago); it counts as another collision.
            let (state, actions) = collided.after(nameplate)
            return (state, actions.filter { $0 != .unregister })
        case .codeDrawn(let nameplate):
            return (.registering(Registering(nameplate: nameplate, collided: collided)), [.register(nameplate)])
        case .established, .collision:
            return (.awaitingCode(self), [])
        case .failed(let error):
            return Ended.after(error)
        case .withdraw:
            return Ended.withdrawn(registered: false)
        }
    }
}
