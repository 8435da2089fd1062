/// What a sender's advertisement tells its caller.
public enum SenderAdvertisementUpdate: Hashable, Sendable {
    /// The service of this nameplate is registered; the daemon probes its name.
    case registering(DiscoveryNameplate)
    /// The nameplate is established on the network: show its code.
    case showCode(DiscoveryNameplate)
    /// This nameplate's name was taken: its code is retired (a new one is drawn, or
    /// advertising stops).
    case collided(DiscoveryNameplate)
    /// Advertising is over; the updates finish after this one.
    case stopped(AdvertisingStopped)
}

/// Drives a ``DNSSDAdvertiser`` with ``SenderAdvertising``: registers the first nameplate,
/// draws a new code after each collision (through the caller's `drawCode`), and stops after
/// too many collisions, a failure of the daemon, or ``withdraw()``.
public actor SenderAdvertisement {
    /// The updates, in order; they finish after ``SenderAdvertisementUpdate/stopped(_:)``.
    public nonisolated let updates: AsyncStream<SenderAdvertisementUpdate>

    private let advertiser: any DNSSDAdvertiser
    private let port: UInt16
    private let drawCode: @Sendable () -> DiscoveryNameplate
    private let continuation: AsyncStream<SenderAdvertisementUpdate>.Continuation
    private var machine: SenderAdvertising
    private var listening: Task<Void, Never>?

    /// An advertisement of `nameplate` at `port` through `advertiser`; nothing happens
    /// before ``start()``.
    ///
    /// - Parameter drawCode: retires the current code and draws a new one (nameplate and
    ///   secret) for the typed way; returns the new nameplate. Called on this actor; it must
    ///   not block.
    public init(advertiser: any DNSSDAdvertiser, nameplate: DiscoveryNameplate, port: UInt16,
                drawCode: @escaping @Sendable () -> DiscoveryNameplate) {
        self.advertiser = advertiser
        self.port = port
        self.drawCode = drawCode
        machine = SenderAdvertising(nameplate: nameplate)
        (updates, continuation) = AsyncStream.makeStream(of: SenderAdvertisementUpdate.self)
    }

    /// Registers the first nameplate and follows the daemon's reports.
    public func start() {
        guard listening == nil else { return }
        let events = advertiser.events
        listening = Task { [weak self] in
            for await event in events { await self?.receive(event) }
        }
        perform(machine.start)
    }

    /// Stops advertising: the service is removed and the updates finish.
    public func withdraw() {
        perform(machine.handle(.withdraw))
    }

    private func receive(_ event: DNSSDAdvertiserEvent) {
        switch event {
        case .established(let nameplate):
            perform(machine.handle(.established(nameplate)))
        case .collision(let nameplate):
            let actions = machine.handle(.collision(nameplate))
            if !actions.isEmpty { continuation.yield(.collided(nameplate)) }
            perform(actions)
        case .failed(let error):
            perform(machine.handle(.failed(error)))
        }
    }

    private func perform(_ actions: [AdvertisingAction]) {
        for action in actions {
            switch action {
            case .register(let nameplate):
                continuation.yield(.registering(nameplate))
                advertiser.register(nameplate, port: port)
            case .unregister:
                advertiser.unregister()
            case .drawNewCode:
                perform(machine.handle(.codeDrawn(drawCode())))
            case .showCode(let nameplate):
                continuation.yield(.showCode(nameplate))
            case .stop(let reason):
                advertiser.stop()
                listening?.cancel()
                continuation.yield(.stopped(reason))
                continuation.finish()
            }
        }
    }
}
