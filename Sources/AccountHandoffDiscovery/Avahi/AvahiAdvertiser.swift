#if canImport(CAvahi)
import CAvahi

/// Advertises a typed-mode sender through the Avahi daemon (libavahi-client over the system
/// D-Bus): the service `AccountHandoff NNN` of type `_accounthandoff._tcp` in `local`, IPv4
/// only, with its TXT record, at the sender's listening port. Its work runs on a thread of its
/// own (``AvahiLoop``); every method returns at once.
///
/// A collision is reported, never resolved by renaming (Avahi's alternative names would show a
/// code that is not the one on screen). When the daemon is not running, or stops, the events
/// end with ``DNSSDAdvertiserEvent/failed(_:)`` and a typed ``DiscoveryError``.
public final class AvahiAdvertiser: DNSSDAdvertiser {
    /// The daemon's reports, in order.
    public let events: AsyncStream<DNSSDAdvertiserEvent>
    private let core: AvahiAdvertiserCore?

    /// Connects to the Avahi daemon on the adapter's thread; a failure to connect arrives as
    /// the first event.
    public init() {
        let (events, continuation) = AsyncStream.makeStream(of: DNSSDAdvertiserEvent.self)
        self.events = events
        core = AvahiClientCore.launch({ AvahiAdvertiserCore(loop: $0, continuation: continuation) }) { error in
            continuation.yield(.failed(error))
            continuation.finish()
        }
    }

    deinit { stop() }

    /// Registers `AccountHandoff NNN` at `port` (replacing any earlier registration), on the adapter's thread.
    public func register(_ nameplate: DiscoveryNameplate, port: UInt16) {
        guard let core else { return }
        core.loop.execute { core.register(nameplate, port: port) }
    }

    /// Removes the registered service, on the adapter's thread.
    public func unregister() {
        guard let core else { return }
        core.loop.execute { core.unregister() }
    }

    /// Removes what it registered, disconnects from the daemon and finishes ``events``, on the adapter's thread.
    public func stop() {
        guard let core else { return }
        core.loop.execute { core.stop() }
    }
}

/// The advertiser's state on the loop thread: the registration the caller wants, and the
/// entry group that holds it.
final class AvahiAdvertiserCore: AvahiClientCore, @unchecked Sendable {
    private let continuation: AsyncStream<DNSSDAdvertiserEvent>.Continuation
    private var group: OpaquePointer?
    /// What the caller asked to register.
    private var wanted: (nameplate: DiscoveryNameplate, port: UInt16)?
    /// The nameplate the entry group holds now: the one the group's reports are about.
    private var registered: DiscoveryNameplate?
    private var running: OpaquePointer?

    init(loop: AvahiLoop, continuation: AsyncStream<DNSSDAdvertiserEvent>.Continuation) {
        self.continuation = continuation
        super.init(loop: loop)
    }

    func register(_ nameplate: DiscoveryNameplate, port: UInt16) {
        guard !isClosed else { return }
        wanted = (nameplate, port)
        publish()
    }

    func unregister() {
        wanted = nil
        withdraw()
    }

    func stop() {
        guard !isClosed else { return }
        unregister()
        continuation.finish()
        close()
    }

    override func clientRunning(_ client: OpaquePointer) {
        running = client
        publish()
    }

    override func daemonRenaming() {
        running = nil
        withdraw()
    }

    override func failed(_ error: DiscoveryError) {
        continuation.yield(.failed(error))
        continuation.finish()
    }

    override func freeObjects() {
        if let group { avahi_entry_group_free(group) }
        group = nil
        registered = nil
        running = nil
    }

    /// Puts `wanted` into the entry group (created on first use), replacing what it held.
    private func publish() {
        guard let client = running, let wanted else { return }
        if group == nil {
            group = avahi_entry_group_new(client, avahiEntryGroupChanged, Unmanaged.passUnretained(self).toOpaque())
        } else {
            avahi_entry_group_reset(group)
        }
        guard let group else { return end(.avahi(avahi_client_errno(client), while: .advertise)) }
        registered = wanted.nameplate
        var txt: UnsafeMutablePointer<AvahiStringList>?
        // Added in record order: libavahi keeps the list last-first and writes it first-last.
        for entry in DiscoveryTXTRecord.entries(for: wanted.nameplate) {
            txt = entry.withUnsafeBufferPointer { avahi_string_list_add_arbitrary(txt, $0.baseAddress, $0.count) }
        }
        defer { avahi_string_list_free(txt) }
        let added = avahi_entry_group_add_service_strlst(
            group, Int32(AVAHI_IF_UNSPEC), Int32(AVAHI_PROTO_INET), AvahiPublishFlags(rawValue: 0),
            DiscoveryServiceNames.instanceName(for: wanted.nameplate), DiscoveryServiceNames.serviceType,
            DiscoveryServiceNames.domain, nil, wanted.port, txt)
        if added == Int32(AVAHI_ERR_COLLISION) {
            // Another program of this machine holds the name: the same answer as the network's.
            registered = nil
            avahi_entry_group_reset(group)
            continuation.yield(.collision(wanted.nameplate))
            return
        }
        guard added == 0 else { return end(.avahi(added, while: .advertise)) }
        let committed = avahi_entry_group_commit(group)
        guard committed == 0 else { return end(.avahi(committed, while: .advertise)) }
    }

    /// Empties the entry group: the service's goodbye goes out.
    private func withdraw() {
        registered = nil
        if let group { avahi_entry_group_reset(group) }
    }

    fileprivate func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        guard !isClosed, group == self.group, let nameplate = registered else { return }
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            continuation.yield(.established(nameplate))
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Withdrawn by the daemon already; emptied here so it is not published again.
            registered = nil
            avahi_entry_group_reset(group)
            continuation.yield(.collision(nameplate))
        case AVAHI_ENTRY_GROUP_FAILURE:
            let code = avahi_entry_group_get_client(group).map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE)
            end(.avahi(code, while: .advertise))
        default:
            break  // AVAHI_ENTRY_GROUP_UNCOMMITED, AVAHI_ENTRY_GROUP_REGISTERING: nothing to report yet.
        }
    }
}

/// The entry group's state callback.
private func avahiEntryGroupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState, _ core: UnsafeMutableRawPointer?) {
    guard let group, let core else { return }
    Unmanaged<AvahiAdvertiserCore>.fromOpaque(core).takeUnretainedValue().groupChanged(group, state)
}
#endif
