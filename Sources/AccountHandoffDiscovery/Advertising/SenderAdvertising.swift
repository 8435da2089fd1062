/// A sender's advertising of its typed code on the local network, as a state machine:
/// events in, actions out; no I/O, clock or randomness of its own. The caller registers and
/// removes the service (`AvahiAdvertiser` on Linux, `BonjourAdvertiser` on Apple platforms) and draws new codes.
///
/// A name collision retires the code: the service is removed and the caller draws a new code,
/// whose nameplate is registered next. After ``maximumRedraws`` new codes, one more collision
/// ends advertising with ``AdvertisingStopped/namesTaken(collisions:)``. A report about a
/// nameplate that is no longer the current one is stale and ignored.
public struct SenderAdvertising: Sendable {
    /// How many new codes a sender draws after collisions before it gives up.
    public static let maximumRedraws = 8

    enum State: Sendable {
        /// The service is registered; the daemon is probing its name.
        case registering(Registering)
        /// The service is on the network.
        case established(Established)
        /// The last name collided; the caller is drawing a new code.
        case awaitingCode(AwaitingCode)
        /// Advertising is over.
        case ended(Ended)
    }

    private(set) var state: State

    /// Starts advertising `nameplate`; `start` holds the first action (register it).
    public init(nameplate: DiscoveryNameplate) {
        state = .registering(Registering(nameplate: nameplate, collided: Collisions()))
    }

    /// The first action: register the first nameplate.
    public var start: [AdvertisingAction] {
        guard case .registering(let registering) = state else { return [] }
        return [.register(registering.nameplate)]
    }

    /// The nameplate registered or established now, `nil` while a new code is drawn or
    /// after the end.
    public var nameplate: DiscoveryNameplate? {
        switch state {
        case .registering(let registering): registering.nameplate
        case .established(let established): established.nameplate
        case .awaitingCode, .ended: nil
        }
    }

    /// Whether advertising is over, and why.
    public var stopped: AdvertisingStopped? {
        switch state {
        case .ended(let ended): ended.reason
        case .registering, .established, .awaitingCode: nil
        }
    }

    /// Feeds one event; returns the actions to take, in order.
    public mutating func handle(_ event: AdvertisingEvent) -> [AdvertisingAction] {
        let next: (State, [AdvertisingAction])
        switch state {
        case .registering(let registering): next = registering.handle(event)
        case .established(let established): next = established.handle(event)
        case .awaitingCode(let awaiting): next = awaiting.handle(event)
        case .ended(let ended): next = ended.handle(event)
        }
        state = next.0
        return next.1
    }
}

/// The nameplates that collided in one sending session, and what the next collision leads to.
struct Collisions: Hashable, Sendable {
    private(set) var nameplates: [DiscoveryNameplate] = []

    /// After `nameplate` collided: draw a new code, or stop once the redraws are spent.
    func after(_ nameplate: DiscoveryNameplate) -> (SenderAdvertising.State, [AdvertisingAction]) {
        var collided = self
        collided.nameplates.append(nameplate)
        guard collided.nameplates.count > SenderAdvertising.maximumRedraws else {
            return (.awaitingCode(AwaitingCode(collided: collided)), [.unregister, .drawNewCode])
        }
        let reason = AdvertisingStopped.namesTaken(collisions: collided.nameplates.count)
        return (.ended(Ended(reason: reason)), [.unregister, .stop(reason)])
    }

    func contains(_ nameplate: DiscoveryNameplate) -> Bool { nameplates.contains(nameplate) }
}
