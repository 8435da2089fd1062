#if canImport(dnssd)
import AccountHandoffTransport
import Darwin
import Dispatch
import dnssd

/// Browses for typed-mode senders through mDNSResponder (Apple platforms), with dns_sd on a
/// serial queue of its own: `DNSServiceBrowse` for `_accounthandoff._tcp` in `local`, then for
/// each service found `DNSServiceResolve` (port, host, TXT record bytes in their order) and
/// `DNSServiceGetAddrInfo` for its IPv4 address only. Browsing starts at once and lasts until
/// ``stop()``.
///
/// Not Network.framework's `NWBrowser`: it gives a service's name and TXT record but no
/// address without connecting to the service, and the receiver must check the address before
/// any connection.
public final class BonjourBrowser: DNSSDBrowser {
    /// The daemon's reports, in order.
    public let events: AsyncStream<DNSSDBrowserEvent>
    private let core: BonjourBrowserCore

    /// Starts browsing; a failure to reach mDNSResponder arrives as the first event.
    ///
    /// - Parameter nameplate: the nameplate looked for: only its service is resolved and
    ///   reported; `nil`: every sender's (see ``DiscoveryServiceNames/isWorthResolving(_:lookingFor:)``).
    public init(lookingFor nameplate: DiscoveryNameplate? = nil) {
        let (events, continuation) = AsyncStream.makeStream(of: DNSSDBrowserEvent.self)
        self.events = events
        let core = BonjourBrowserCore(nameplate: nameplate, continuation: continuation)
        self.core = core
        core.queue.async { core.start() }
    }

    deinit { stop() }

    /// Stops browsing, disconnects from the daemon and finishes ``events``, on the adapter's queue.
    public func stop() {
        let core = core
        core.queue.async { core.stop() }
    }
}

/// The browser's state, on its queue only.
final class BonjourBrowserCore: @unchecked Sendable {
    // Safety of @unchecked Sendable: every var is touched on `queue` only.
    let queue = DispatchQueue(label: "handoff.discovery.bonjour-browser")
    private let nameplate: DiscoveryNameplate?
    private let continuation: AsyncStream<DNSSDBrowserEvent>.Continuation
    private var browser: DNSServiceRef?
    private var resolutions: [DiscoveredServiceKey: BonjourResolution] = [:]
    private var stopped = false

    init(nameplate: DiscoveryNameplate?, continuation: AsyncStream<DNSSDBrowserEvent>.Continuation) {
        self.nameplate = nameplate
        self.continuation = continuation
    }

    func start() {
        var made: DNSServiceRef?
        let error = DNSServiceBrowse(&made, 0, 0, DiscoveryServiceNames.serviceType, DiscoveryServiceNames.domain,
                                     { _, flags, interface, error, name, type, domain, context in
                                         guard let context else { return }
                                         Unmanaged<BonjourBrowserCore>.fromOpaque(context).takeUnretainedValue().browsed(
                                             flags, interface, error, name.map { String(cString: $0) } ?? "",
                                             type.map { String(cString: $0) } ?? "", domain.map { String(cString: $0) } ?? "")
                                     }, bonjourContext(self))
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError), let made else { return fail(.bonjour(error, while: .connect)) }
        guard attach(made, failing: .browse) else { return }
        browser = made
    }

    func stop() {
        guard !stopped else { return }
        release()
        continuation.finish()
    }

    private func release() {
        stopped = true
        for resolution in resolutions.values { resolution.release() }
        resolutions.removeAll()
        if let browser { DNSServiceRefDeallocate(browser) }
        browser = nil
    }

    private func fail(_ error: DiscoveryError) {
        guard !stopped else { return }
        release()
        continuation.yield(.failed(error))
        continuation.finish()
    }

    /// Puts `service` on this queue; `false` (after failing) when it cannot be.
    private func attach(_ service: DNSServiceRef, failing operation: DiscoveryOperation) -> Bool {
        let attached = DNSServiceSetDispatchQueue(service, queue)
        guard attached == DNSServiceErrorType(kDNSServiceErr_NoError) else {
            DNSServiceRefDeallocate(service)
            fail(.bonjour(attached, while: operation))
            return false
        }
        return true
    }

    private func browsed(_ flags: DNSServiceFlags, _ interface: UInt32, _ error: DNSServiceErrorType, _ name: String, _ type: String, _ domain: String) {
        guard !stopped else { return }
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError) else { return fail(.bonjour(error, while: .browse)) }
        guard DiscoveryServiceNames.isWorthResolving(name, lookingFor: nameplate) else { return }
        let key = DiscoveredServiceKey(instanceName: name, interfaceIndex: Int32(bitPattern: interface))
        resolutions.removeValue(forKey: key)?.release()
        guard flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 else {
            continuation.yield(.removed(key))
            return
        }
        let resolution = BonjourResolution(key: key, domain: domain, owner: self)
        resolutions[key] = resolution
        var made: DNSServiceRef?
        let started = DNSServiceResolve(&made, 0, interface, name, type, domain, { _, _, interface, error, _, host, port, length, txt, context in
            guard let context else { return }
            let record = txt.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
            Unmanaged<BonjourResolution>.fromOpaque(context).takeUnretainedValue().resolved(
                error, interface, host.map { String(cString: $0) }, UInt16(bigEndian: port), record)
        }, bonjourContext(resolution))
        guard started == DNSServiceErrorType(kDNSServiceErr_NoError), let made else { return fail(.bonjour(started, while: .resolve)) }
        guard attach(made, failing: .resolve) else { return }
        resolution.steps.append(made)
    }

    /// What a resolution found: reported when ours to report, then forgotten.
    fileprivate func finished(_ resolution: BonjourResolution, found: DiscoveredService?) {
        guard !stopped, resolutions[resolution.key] === resolution else { return }
        resolutions[resolution.key] = nil
        resolution.release()
        if let found { continuation.yield(.found(found)) }
    }

    /// Starts the IPv4 address lookup of `host` for `resolution`; `false` when it could not start.
    fileprivate func lookUp(_ host: String, interface: UInt32, for resolution: BonjourResolution) -> Bool {
        var made: DNSServiceRef?
        let started = DNSServiceGetAddrInfo(&made, 0, interface, DNSServiceProtocol(kDNSServiceProtocol_IPv4), host,
                                            { _, flags, _, error, _, address, _, context in
                                                guard let context else { return }
                                                Unmanaged<BonjourResolution>.fromOpaque(context).takeUnretainedValue().addressed(flags, error, address)
                                            }, bonjourContext(resolution))
        guard started == DNSServiceErrorType(kDNSServiceErr_NoError), let made else { return false }
        guard attach(made, failing: .resolve) else { return false }
        resolution.steps.append(made)
        return true
    }
}

/// One found service on its way to an address: the resolve, then the IPv4 address lookup.
final class BonjourResolution: @unchecked Sendable {
    // Safety of @unchecked Sendable: used on the browser's queue only.
    let key: DiscoveredServiceKey
    let domain: String
    /// The dns_sd requests under way, deallocated by ``release()``.
    var steps: [DNSServiceRef] = []
    private unowned let owner: BonjourBrowserCore
    private var port: UInt16 = 0
    private var txt: [[UInt8]]?

    init(key: DiscoveredServiceKey, domain: String, owner: BonjourBrowserCore) {
        self.key = key
        self.domain = domain
        self.owner = owner
    }

    func release() {
        for step in steps { DNSServiceRefDeallocate(step) }
        steps.removeAll()
    }

    fileprivate func resolved(_ error: DNSServiceErrorType, _ interface: UInt32, _ host: String?, _ port: UInt16, _ record: [UInt8]) {
        // The resolve may report again (a changed record): the first answer is the one looked up.
        guard txt == nil else { return }
        // A TXT record whose lengths run past its end is not a sender's: it is not reported.
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError), let host,
              let strings = try? DiscoveryTXTRecord.strings(inWireFormat: record) else { return owner.finished(self, found: nil) }
        self.port = port
        txt = strings
        if !owner.lookUp(host, interface: interface, for: self) { owner.finished(self, found: nil) }
    }

    fileprivate func addressed(_ flags: DNSServiceFlags, _ error: DNSServiceErrorType, _ address: UnsafePointer<sockaddr>?) {
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError), flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0, let address,
              address.pointee.sa_family == sa_family_t(AF_INET), let txt else { return owner.finished(self, found: nil) }
        let ipv4 = UnsafeRawPointer(address).load(as: sockaddr_in.self)
        let bytes = withUnsafeBytes(of: ipv4.sin_addr.s_addr) { Array($0) }
        let found = DiscoveredService(instanceName: key.instanceName, domain: domain, interfaceIndex: key.interfaceIndex,
                                      address: IPv4Address(bytes: bytes).map(DiscoveredAddress.ipv4) ?? .other, port: port, txtEntries: txt)
        owner.finished(self, found: found)
    }
}
#endif
