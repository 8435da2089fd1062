#if canImport(CAvahi)
import AccountHandoffTransport
import CAvahi

/// Browses for typed-mode senders through the Avahi daemon (libavahi-client over the system
/// D-Bus): `_accounthandoff._tcp` in `local`, IPv4 only, each found service resolved to its
/// IPv4 address, port and TXT record. Its work runs on a thread of its own (``AvahiLoop``);
/// browsing starts at once and lasts until ``stop()``.
///
/// When the daemon is not running, or stops while browsing, the events end with
/// ``DNSSDBrowserEvent/failed(_:)`` and a typed ``DiscoveryError``. So does a daemon that can
/// no longer resolve the services found (too many for one client): deciding on part of what
/// the network shows could pick the wrong device. Only senders' services are resolved (only
/// the nameplate's, when one is looked for), so other services never use up the daemon.
public final class AvahiBrowser: DNSSDBrowser {
    /// The daemon's reports, in order.
    public let events: AsyncStream<DNSSDBrowserEvent>
    private let core: AvahiBrowserCore?

    /// Connects to the Avahi daemon and starts browsing, on the adapter's thread; a failure
    /// to connect arrives as the first event.
    ///
    /// - Parameter nameplate: the nameplate looked for: only its service is resolved and
    ///   reported; `nil`: every sender's (see ``DiscoveryServiceNames/isWorthResolving(_:lookingFor:)``).
    public init(lookingFor nameplate: DiscoveryNameplate? = nil) {
        let (events, continuation) = AsyncStream.makeStream(of: DNSSDBrowserEvent.self)
        self.events = events
        core = AvahiClientCore.launch({ AvahiBrowserCore(loop: $0, nameplate: nameplate, continuation: continuation) }) { error in
            continuation.yield(.failed(error))
            continuation.finish()
        }
    }

    deinit { stop() }

    /// Stops browsing, disconnects from the daemon and finishes ``events``, on the adapter's thread.
    public func stop() {
        guard let core else { return }
        core.loop.execute { core.stop() }
    }
}

/// The browser's state on the loop thread: the service browser and the resolvers of the
/// services found and not yet resolved.
final class AvahiBrowserCore: AvahiClientCore, @unchecked Sendable {
    private let nameplate: DiscoveryNameplate?
    private let continuation: AsyncStream<DNSSDBrowserEvent>.Continuation
    private var browser: OpaquePointer?
    private var resolvers: [DiscoveredServiceKey: OpaquePointer] = [:]

    init(loop: AvahiLoop, nameplate: DiscoveryNameplate?, continuation: AsyncStream<DNSSDBrowserEvent>.Continuation) {
        self.nameplate = nameplate
        self.continuation = continuation
        super.init(loop: loop)
    }

    func stop() {
        guard !isClosed else { return }
        continuation.finish()
        close()
    }

    override func clientRunning(_ client: OpaquePointer) {
        guard browser == nil else { return }
        browser = avahi_service_browser_new(client, Int32(AVAHI_IF_UNSPEC), Int32(AVAHI_PROTO_INET), DiscoveryServiceNames.serviceType,
                                            DiscoveryServiceNames.domain, AvahiLookupFlags(rawValue: 0), avahiServiceBrowserChanged,
                                            Unmanaged.passUnretained(self).toOpaque())
        if browser == nil { end(.avahi(avahi_client_errno(client), while: .browse)) }
    }

    override func failed(_ error: DiscoveryError) {
        continuation.yield(.failed(error))
        continuation.finish()
    }

    override func freeObjects() {
        for resolver in resolvers.values { avahi_service_resolver_free(resolver) }
        resolvers.removeAll()
        if let browser { avahi_service_browser_free(browser) }
        browser = nil
    }

    fileprivate func browserChanged(_ browser: OpaquePointer, _ interface: Int32, _ proto: Int32, _ event: AvahiBrowserEvent,
                                    _ name: String, _ type: String, _ domain: String) {
        guard !isClosed, browser == self.browser else { return }
        guard event == AVAHI_BROWSER_FAILURE || DiscoveryServiceNames.isWorthResolving(name, lookingFor: nameplate) else { return }
        let key = DiscoveredServiceKey(instanceName: name, interfaceIndex: interface)
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let client = avahi_service_browser_get_client(browser) else { return }
            if let earlier = resolvers.removeValue(forKey: key) { avahi_service_resolver_free(earlier) }
            let resolver = avahi_service_resolver_new(client, interface, proto, name, type, domain, Int32(AVAHI_PROTO_INET),
                                                      AvahiLookupFlags(rawValue: 0), avahiServiceResolverChanged,
                                                      Unmanaged.passUnretained(self).toOpaque())
            guard let resolver else { return end(.avahi(avahi_client_errno(client), while: .resolve)) }
            resolvers[key] = resolver
        case AVAHI_BROWSER_REMOVE:
            if let pending = resolvers.removeValue(forKey: key) { avahi_service_resolver_free(pending) }
            continuation.yield(.removed(key))
        case AVAHI_BROWSER_FAILURE:
            let code = avahi_service_browser_get_client(browser).map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE)
            end(.avahi(code, while: .browse))
        default:
            break  // AVAHI_BROWSER_CACHE_EXHAUSTED, AVAHI_BROWSER_ALL_FOR_NOW: the browsing time decides when to stop.
        }
    }

    fileprivate func resolverChanged(_ resolver: OpaquePointer, _ found: DiscoveredService?, key: DiscoveredServiceKey) {
        guard !isClosed, resolvers[key] == resolver else { return }
        resolvers[key] = nil
        avahi_service_resolver_free(resolver)
        // A service that could not be resolved (it left, or never answered) is not reported.
        if let found { continuation.yield(.found(found)) }
    }
}

/// The service browser's callback.
private func avahiServiceBrowserChanged(_ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
                                        _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
                                        _ flags: AvahiLookupResultFlags, _ core: UnsafeMutableRawPointer?) {
    guard let browser, let core else { return }
    Unmanaged<AvahiBrowserCore>.fromOpaque(core).takeUnretainedValue().browserChanged(
        browser, interface, proto, event, name.map { String(cString: $0) } ?? "", type.map { String(cString: $0) } ?? "",
        domain.map { String(cString: $0) } ?? "")
}

/// The service resolver's callback.
private func avahiServiceResolverChanged(_ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiResolverEvent,
                                         _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
                                         _ host: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
                                         _ txt: UnsafeMutablePointer<AvahiStringList>?, _ flags: AvahiLookupResultFlags, _ core: UnsafeMutableRawPointer?) {
    guard let resolver, let core else { return }
    let instanceName = name.map { String(cString: $0) } ?? ""
    let key = DiscoveredServiceKey(instanceName: instanceName, interfaceIndex: interface)
    var found: DiscoveredService?
    if event == AVAHI_RESOLVER_FOUND, let address {
        found = DiscoveredService(instanceName: instanceName, domain: domain.map { String(cString: $0) } ?? "", interfaceIndex: interface,
                                  address: discoveredAddress(address.pointee), port: port, txtEntries: txtEntries(txt))
    }
    Unmanaged<AvahiBrowserCore>.fromOpaque(core).takeUnretainedValue().resolverChanged(resolver, found, key: key)
}

/// An Avahi address as discovery sees it: IPv4 (held in network order), or other.
private func discoveredAddress(_ address: AvahiAddress) -> DiscoveredAddress {
    guard address.proto == Int32(AVAHI_PROTO_INET) else { return .other }
    let networkOrder = address.data.ipv4.address
    return IPv4Address(bytes: withUnsafeBytes(of: networkOrder) { Array($0) }).map(DiscoveredAddress.ipv4) ?? .other
}

/// The strings of a TXT record in the record's order: the list libavahi-client hands a
/// resolver's callback starts with the record's first string.
private func txtEntries(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [[UInt8]] {
    var entries: [[UInt8]] = []
    var node = list
    while let current = node {
        let size = avahi_string_list_get_size(current)
        let text = avahi_string_list_get_text(current)
        entries.append(text.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        node = avahi_string_list_get_next(current)
    }
    return entries
}
#endif
