import AccountHandoff
import AccountHandoffTransport
import Foundation

/// Announces a sending device's typed code on the local network (Spec 11.10) through a
/// ``DNSSDAdvertiser``: the ``AccountHandoffTransport/TypedWayAnnouncer`` of a
/// ``AccountHandoffTransport/FrameListener`` with a typed way: give it to the listener
/// (`FrameListener(address:typedWay:)`, with an address other devices reach), and the listener
/// announces here each nameplate its session serves.
///
/// A collision is the network's answer that another device announces the same nameplate: it
/// goes to the listener (its session draws a new code) and to ``status``. A daemon that fails
/// ends the announcing for good (``TypedAnnouncementStatus/failed(_:)``): the typed way cannot
/// be found on the local network any more, and the QR still works.
public final class DNSSDTypedAnnouncer: TypedWayAnnouncer, @unchecked Sendable {
    // Safety of @unchecked Sendable: `current`, `nameTaken` and `failed` are only touched under
    // `lock`; the rest is immutable.

    /// What happens to the announcement, in order; finishes after ``stop()`` or a failure.
    public let status: AsyncStream<TypedAnnouncementStatus>

    private let advertiser: any DNSSDAdvertiser
    private let statusSink: AsyncStream<TypedAnnouncementStatus>.Continuation
    private let lock = NSLock()
    private var current: DiscoveryNameplate?
    private var nameTaken: (@Sendable (TypedCode.Nameplate) -> Void)?
    private var failure: DiscoveryError?
    private var following: Task<Void, Never>?

    /// An announcer through `advertiser` (`AvahiAdvertiser()` on Linux); it follows the
    /// daemon's reports from now on.
    public init(advertiser: any DNSSDAdvertiser) {
        self.advertiser = advertiser
        (status, statusSink) = AsyncStream.makeStream(of: TypedAnnouncementStatus.self, bufferingPolicy: .bufferingNewest(32))
        let events = advertiser.events
        following = Task { [weak self] in
            for await event in events { self?.receive(event) }
        }
    }

    deinit { stop() }

    /// An announcer through the platform's DNS-SD daemon: Avahi on Linux, Bonjour on Apple platforms.
    public static func platform() -> DNSSDTypedAnnouncer {
        #if canImport(CAvahi)
        DNSSDTypedAnnouncer(advertiser: AvahiAdvertiser())
        #else
        DNSSDTypedAnnouncer(advertiser: BonjourAdvertiser())
        #endif
    }

    /// The failure that ended announcing, if one did.
    public var failed: DiscoveryError? { lock.withLock { failure } }

    /// Announces `nameplate` at `port` instead of any earlier one.
    public func announce(_ nameplate: TypedCode.Nameplate, port: UInt16, nameTaken: @escaping @Sendable (TypedCode.Nameplate) -> Void) {
        guard let wanted = DiscoveryNameplate(Int(nameplate.value)) else { return }
        let proceed = lock.withLock { () -> Bool in
            guard failure == nil else { return false }
            current = wanted
            self.nameTaken = nameTaken
            return true
        }
        if proceed { advertiser.register(wanted, port: port) }
    }

    /// Stops announcing; the service's goodbye goes out.
    public func withdraw() {
        let announced = lock.withLock { () -> Bool in
            defer { current = nil }
            return current != nil
        }
        if announced {
            advertiser.unregister()
            statusSink.yield(.withdrawn)
        }
    }

    /// Withdraws, disconnects from the daemon and finishes ``status``. Idempotent.
    public func stop() {
        withdraw()
        advertiser.stop()
        following?.cancel()
        statusSink.finish()
    }

    private func receive(_ event: DNSSDAdvertiserEvent) {
        switch event {
        case .established(let nameplate):
            guard lock.withLock({ current == nameplate }) else { return }
            statusSink.yield(.announced(nameplate))
        case .collision(let nameplate):
            let report = lock.withLock { () -> (@Sendable (TypedCode.Nameplate) -> Void)? in
                guard current == nameplate else { return nil }
                current = nil
                return nameTaken
            }
            guard let report, let taken = TypedCode.Nameplate(value: nameplate.value) else { return }
            statusSink.yield(.nameTaken(nameplate))
            report(taken)
        case .failed(let error):
            lock.withLock {
                failure = error
                current = nil
            }
            statusSink.yield(.failed(error))
            statusSink.finish()
        }
    }
}

/// What happened to a sending device's announcement of its typed code.
public enum TypedAnnouncementStatus: Hashable, Sendable {
    /// The nameplate is on the local network: receiving devices find it.
    case announced(DiscoveryNameplate)
    /// Another device announces the nameplate: the session draws a new code.
    case nameTaken(DiscoveryNameplate)
    /// The announcement was withdrawn (a new code comes next, or the typed way ended).
    case withdrawn
    /// The DNS-SD daemon failed: the typed code cannot be found on the local network any more.
    case failed(DiscoveryError)
}
