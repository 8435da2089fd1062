#if canImport(CAvahi)
import CAvahi

/// One connection to the Avahi daemon (an `AvahiClient`) on its own ``AvahiLoop``, confined to
/// the loop's thread: created, used and freed there only. The advertiser and the browser
/// build on it; they override what happens when the daemon runs, renames its host, or fails.
///
/// The daemon going away (stopped, restarted, or its bus gone) is reported once, as
/// ``DiscoveryError/daemonStopped``, and ends the connection: what was advertised is gone
/// and what was browsed is incomplete, so the caller decides what to do (draw anew, browse
/// again, or use a relay), rather than a silent reconnect.
class AvahiClientCore: @unchecked Sendable {
    // Safety of @unchecked Sendable: every stored property of this class and its subclasses
    // is touched on the loop thread only (through `loop.execute`); `loop` itself is Sendable.

    let loop: AvahiLoop
    /// The client, while connected.
    private(set) var client: OpaquePointer?
    private var closed = false
    private var released = false

    init(loop: AvahiLoop) {
        self.loop = loop
    }

    /// A core made by `make` on a new loop, connecting at once; `nil`, after `unavailable` was
    /// told why, when the system gives no loop.
    static func launch<Core: AvahiClientCore>(_ make: (AvahiLoop) -> Core, unavailable: (DiscoveryError) -> Void) -> Core? {
        let loop: AvahiLoop
        do throws(DiscoveryError) { loop = try AvahiLoop() } catch {
            unavailable(error)
            return nil
        }
        let core = make(loop)
        loop.execute { core.connect() }
        return core
    }

    /// Connects to the daemon; the subclass hears ``clientRunning(_:)`` or ``failed(_:)``.
    final func connect() {
        var code: Int32 = 0
        // The state callback runs inside avahi_client_new already (with the daemon's state),
        // so it is given the client it concerns rather than reading `client`.
        let made = avahi_client_new(loop.api, AvahiClientFlags(rawValue: 0), avahiClientChanged,
                                    Unmanaged.passUnretained(self).toOpaque(), &code)
        guard let made, !closed else {
            if let made { avahi_client_free(made) }
            if !closed { end(.avahi(code, while: .connect)) }
            return
        }
        client = made
    }

    fileprivate final func stateChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
        guard !closed else { return }
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            clientRunning(client)
        case AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // The daemon (re)registers its host name; what it published is withdrawn until it runs.
            daemonRenaming()
        case AVAHI_CLIENT_FAILURE:
            end(.avahi(avahi_client_errno(client), while: .connect))
        default:
            break  // AVAHI_CLIENT_CONNECTING: only with AVAHI_CLIENT_NO_FAIL, which is not used.
        }
    }

    /// The daemon runs (again): publish or browse.
    func clientRunning(_ client: OpaquePointer) {}

    /// The daemon withdrew what it published to register its host name anew.
    func daemonRenaming() {}

    /// The connection failed; the subclass reports `error`. Avahi objects are freed after.
    func failed(_ error: DiscoveryError) {}

    /// Frees the subclass's Avahi objects (entry group, browser, resolvers), before the client.
    func freeObjects() {}

    /// Reports `error` once, then closes on a later turn of the loop (never inside one of
    /// Avahi's callbacks, which may still use the client when it returns).
    final func end(_ error: DiscoveryError) {
        guard !closed else { return }
        failed(error)
        loop.execute { [self] in close() }
        closed = true
    }

    /// Frees everything and ends the loop's thread. Idempotent.
    final func close() {
        closed = true
        guard !released else { return }
        released = true
        freeObjects()
        if let client { avahi_client_free(client) }
        client = nil
        loop.quit()
    }

    /// Whether the connection is over (``end(_:)`` or ``close()``).
    final var isClosed: Bool { closed }
}

/// The client's state callback.
private func avahiClientChanged(_ client: OpaquePointer?, _ state: AvahiClientState, _ core: UnsafeMutableRawPointer?) {
    guard let client, let core else { return }
    Unmanaged<AvahiClientCore>.fromOpaque(core).takeUnretainedValue().stateChanged(client, state)
}
#endif
