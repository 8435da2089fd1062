#if canImport(dnssd)
import Dispatch
import dnssd

/// Advertises a typed-mode sender through mDNSResponder (Apple platforms), with dns_sd's
/// `DNSServiceRegister` on a serial queue of its own: `AccountHandoff NNN` of type
/// `_accounthandoff._tcp` in `local`, with the core's TXT record bytes, at the port of the
/// sender's own listener. `kDNSServiceFlagsNoAutoRename`: a name taken on the network is
/// reported as ``DNSSDAdvertiserEvent/collision(_:)``, never renamed.
///
/// Not Network.framework's `NWListener`: it advertises only a port it listens on itself (the
/// typed-mode listener is the transport's), renames silently on a conflict, and builds the TXT
/// record from a dictionary. mDNSResponder publishes the device's addresses itself; IPv4 only
/// is the receiver's rule (``BonjourBrowser`` resolves IPv4 addresses only).
public final class BonjourAdvertiser: DNSSDAdvertiser {
    /// The daemon's reports, in order.
    public let events: AsyncStream<DNSSDAdvertiserEvent>
    private let core: BonjourAdvertiserCore

    /// An advertiser; nothing is registered before ``register(_:port:)``.
    public init() {
        let (events, continuation) = AsyncStream.makeStream(of: DNSSDAdvertiserEvent.self)
        self.events = events
        core = BonjourAdvertiserCore(continuation: continuation)
    }

    deinit { stop() }

    /// Registers `AccountHandoff NNN` at `port` (replacing any earlier registration), on the adapter's queue.
    public func register(_ nameplate: DiscoveryNameplate, port: UInt16) {
        let core = core
        core.queue.async { core.register(nameplate, port: port) }
    }

    /// Removes the registered service, on the adapter's queue.
    public func unregister() {
        let core = core
        core.queue.async { core.withdraw() }
    }

    /// Removes what it registered, disconnects from the daemon and finishes ``events``, on the adapter's queue.
    public func stop() {
        let core = core
        core.queue.async { core.stop() }
    }
}

/// The advertiser's state, on its queue only.
final class BonjourAdvertiserCore: @unchecked Sendable {
    // Safety of @unchecked Sendable: every var is touched on `queue` only.
    let queue = DispatchQueue(label: "handoff.discovery.bonjour-advertiser")
    private let continuation: AsyncStream<DNSSDAdvertiserEvent>.Continuation
    private var service: DNSServiceRef?
    private var registered: DiscoveryNameplate?
    private var stopped = false

    init(continuation: AsyncStream<DNSSDAdvertiserEvent>.Continuation) {
        self.continuation = continuation
    }

    func register(_ nameplate: DiscoveryNameplate, port: UInt16) {
        guard !stopped else { return }
        withdraw()
        let txt = DiscoveryTXTRecord.wireFormat(for: nameplate)
        var made: DNSServiceRef?
        let error = txt.withUnsafeBytes { bytes in
            DNSServiceRegister(&made, DNSServiceFlags(kDNSServiceFlagsNoAutoRename), 0, DiscoveryServiceNames.instanceName(for: nameplate),
                               DiscoveryServiceNames.serviceType, DiscoveryServiceNames.domain, nil, port.bigEndian, UInt16(bytes.count),
                               bytes.baseAddress, { service, flags, error, _, _, _, context in
                                   guard let service, let context else { return }
                                   Unmanaged<BonjourAdvertiserCore>.fromOpaque(context).takeUnretainedValue().replied(service, flags, error)
                               }, bonjourContext(self))
        }
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError), let made else { return fail(.bonjour(error, while: .connect)) }
        let attached = DNSServiceSetDispatchQueue(made, queue)
        guard attached == DNSServiceErrorType(kDNSServiceErr_NoError) else {
            DNSServiceRefDeallocate(made)
            return fail(.bonjour(attached, while: .advertise))
        }
        service = made
        registered = nameplate
    }

    /// Removes the registration (mDNSResponder sends its goodbye).
    func withdraw() {
        if let service { DNSServiceRefDeallocate(service) }
        service = nil
        registered = nil
    }

    func stop() {
        guard !stopped else { return }
        withdraw()
        stopped = true
        continuation.finish()
    }

    private func fail(_ error: DiscoveryError) {
        withdraw()
        stopped = true
        continuation.yield(.failed(error))
        continuation.finish()
    }

    private func replied(_ reply: DNSServiceRef, _ flags: DNSServiceFlags, _ error: DNSServiceErrorType) {
        guard reply == service, let nameplate = registered else { return }
        switch error {
        case DNSServiceErrorType(kDNSServiceErr_NoError):
            if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 { continuation.yield(.established(nameplate)) }
        case DNSServiceErrorType(kDNSServiceErr_NameConflict):
            withdraw()
            continuation.yield(.collision(nameplate))
        default:
            fail(.bonjour(error, while: .advertise))
        }
    }
}
#endif
