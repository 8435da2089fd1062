import AccountHandoff
import Foundation

/// The receiver's side of the transport as a ``AccountHandoff/FrameChannel``: one admitted
/// connection to the sender named by a QR, direct or through its relay (Spec 11.4, 11.7, 11.8).
///
/// ```swift
/// let session = HandoffReceiverSession(payload: payload, importer: importer, authenticator: gate,
///                                      registry: registry) { payload in
///     try await ConnectionFrameChannel.connect(to: payload)
/// }
/// ```
///
/// Every wait before the session starts is bounded: a direct connect by
/// ``TransportConfiguration/connectTimeout``, the challenge by
/// ``TransportConfiguration/admissionTimeout``, a wait at the relay by the code's expiry plus
/// the clock-skew tolerance. Frames are read one at a time as the session asks for them. All
/// the work happens on the process's transport event loop (and relay name lookups on a
/// thread of their own); no call blocks.
public final class ConnectionFrameChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: the mutable state lives in `core`, which only the event
    // loop's thread touches.

    /// The one peer: the sender.
    public static let sender = ConnectionCore.peer

    /// How long the receiver waits before connecting again when the sender closed a
    /// connection before challenging it (its listener was full, Spec 11.6).
    static let retryDelay: Duration = .milliseconds(250)

    /// How this channel reaches the sender.
    public let route: ConnectionRoute

    private let core: ConnectionCore
    private let loop: EventLoop
    private let receiveCounter = Counter()

    init(route: ConnectionRoute, core: ConnectionCore, loop: EventLoop) {
        self.route = route
        self.core = core
        self.loop = loop
    }

    deinit {
        let core = self.core
        loop.execute { core.abandon() }
    }

    /// Connects to the sender named by the QR's rendezvous token and passes admission; the
    /// channel is then ready for the hello (Spec 11.8).
    ///
    /// With a direct address (checked against `addressPolicy` before any connection is made)
    /// it connects there first; a connection the sender closes before challenging it (its
    /// listener was full) is tried again after a short pause, while the connect and admission
    /// timeouts last. With a relay too, it also connects through the relay once the direct
    /// attempt failed or was not admitted within ``TransportConfiguration/directHeadStart``;
    /// the first connection admitted carries the session and the other is closed. Through the
    /// relay, each connection presents a fresh random side; one the relay closes before
    /// pairing it, or pairs with someone who is not this QR's sender, is made again after
    /// ``TransportConfiguration/relayRetryDelay``, until `pairingDeadline`. The relay's address
    /// is whatever the code names (this device trusts it with nothing but the bytes it
    /// copies); a direct address the policy refuses is skipped when the code has a relay.
    ///
    /// - Parameters:
    ///   - pairingDeadline: when to stop waiting at the relay; by default the code's expiry
    ///     plus ``AccountHandoff/ReceiverConfiguration/standard``'s clock-skew tolerance.
    ///   - progress: told where the connect goes, as it goes (from any thread; keep it short).
    /// - Throws: ``TransportError/unsupportedRendezvous(_:)`` for a token it cannot read;
    ///   ``TransportError/directAddressRefused(_:_:)`` (a code without a relay);
    ///   ``TransportError/connectionRefused``; ``TransportError/timedOut`` (no connection, or
    ///   no challenge, in time); ``TransportError/notAHandoffSender``;
    ///   ``TransportError/codeRenewed`` when the sender now serves another QR (the session
    ///   ends as `expired`); ``TransportError/relayNotPaired`` or
    ///   ``TransportError/relayHostNotFound(_:)`` when the relay never led to the sender;
    ///   ``AccountHandoff/HandoffError/secureMemoryUnavailable(_:)``; `CancellationError` when
    ///   the calling task is cancelled.
    public static func connect(to payload: SessionPayload, configuration: TransportConfiguration = .standard,
                               addressPolicy: DirectAddressPolicy = .localNetworks, pairingDeadline: Date? = nil,
                               progress: @escaping @Sendable (ConnectionProgress) -> Void = { _ in }) async throws -> ConnectionFrameChannel {
        let rendezvous: TCPRendezvous
        do { rendezvous = try TCPRendezvous(token: payload.rendezvous) } catch {
            throw TransportError.unsupportedRendezvous(error)
        }
        var direct = rendezvous.direct
        if let endpoint = direct, let refusal = addressPolicy.refusal(of: endpoint.address) {
            guard rendezvous.relay != nil else { throw TransportError.directAddressRefused(endpoint.address, refusal) }
            progress(.directAddressSkipped(endpoint.address, refusal))
            direct = nil
        }
        let keys = try TransportKeys(payload: payload)
        let loop = try EventLoop.shared()
        let skew = Double(ReceiverConfiguration.standard.clockSkewTolerance)
        let waitEnds = pairingDeadline ?? payload.expiryDate.addingTimeInterval(skew)
        let race = RouteRace(keys: keys, configuration: configuration, loop: loop, progress: progress,
                             pairingDeadline: ContinuousClock.now + .milliseconds(Int64(max(0, waitEnds.timeIntervalSinceNow) * 1000)))
        let channel = try await race.run(direct: direct, relay: rendezvous.relay)
        progress(.connected(channel.route))
        return channel
    }

    /// Typed way (Spec 11.10): connects to the sending device found on the local network for
    /// the nameplate typed, at `endpoint`; there is no admission, the channel is ready for the
    /// sender's `pakeInit`.
    ///
    /// - Throws: ``TransportError/directAddressRefused(_:_:)`` when `addressPolicy` refuses the
    ///   address (checked before any connection is made); ``TransportError/connectionRefused``;
    ///   ``TransportError/timedOut``; `CancellationError` when the calling task is cancelled.
    public static func connectTyped(to endpoint: TCPRendezvous.Endpoint, configuration: TransportConfiguration = .standard,
                                    addressPolicy: DirectAddressPolicy = .localNetworks) async throws -> ConnectionFrameChannel {
        if let refusal = addressPolicy.refusal(of: endpoint.address) { throw TransportError.directAddressRefused(endpoint.address, refusal) }
        let loop = try EventLoop.shared()
        return try await opened(ConnectionCore(loop: loop, configuration: configuration, keys: nil), route: .direct(endpoint), loop: loop) {
            core, continuation in core.connect(to: endpoint, continuation)
        }
    }

    /// Typed way (Spec 11.10, 12.8): connects through `relay` with the token of `nameplate` and
    /// a fresh side, and waits until `pairingDeadline` for the relay to pair it with the device
    /// that waits there with that nameplate; no admission follows, the channel is ready for its
    /// `pakeInit`.
    ///
    /// - Throws: ``TransportError/relayNotPaired`` when nobody waited there in time;
    ///   ``TransportError/relayHostNotFound(_:)``; ``TransportError/connectionRefused``;
    ///   ``TransportError/timedOut``; `CancellationError`.
    public static func connectTyped(throughRelay relay: TCPRendezvous.Relay, nameplate: TypedCode.Nameplate, pairingDeadline: Date,
                                    configuration: TransportConfiguration = .standard) async throws -> ConnectionFrameChannel {
        let keys = try TypedRelayKeys(nameplate: nameplate)
        let address = try await RelayAddressResolver.resolve(relay.host)
        let line = RelayHandshake.line(relayToken: keys.relayToken, side: RelayHandshake.receiverSide(senderSide: keys.senderSide, random: SystemRandomSource()))
        let loop = try EventLoop.shared()
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, pairingDeadline.timeIntervalSinceNow) * 1000))
        let core = ConnectionCore(loop: loop, configuration: configuration, keys: nil, relayed: true)
        return try await opened(core, route: .relay(relay, address: address), loop: loop) { core, continuation in
            core.connect(throughRelayAt: address, port: relay.port, line: line, pairingDeadline: deadline, continuation)
        }
    }

    /// Runs `start` on the loop and waits until `core` is admitted (or, typed, connected); a
    /// cancelled task stops it.
    static func opened(_ core: ConnectionCore, route: ConnectionRoute, loop: EventLoop,
                       _ start: @escaping @Sendable (ConnectionCore, CheckedContinuation<Void, any Error>) -> Void) async throws
        -> ConnectionFrameChannel {
        try await loop.wait(forThrowing: { start(core, $0) }, onCancel: { core.cancelAdmission() })
        return ConnectionFrameChannel(route: route, core: core, loop: loop)
    }

    /// The connection's descriptor (test hook).
    package var descriptors: [Int32] {
        get async {
            let core = self.core
            return await loop.wait { $0.resume(returning: core.descriptors) }
        }
    }

    // MARK: FrameChannel

    /// The next frame from the sender, then `.peerLeft` once when the connection ended, then
    /// `nil`; `nil` too once closed. The frame returned before counts as processed now.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled.
    public func receive() async throws -> FrameChannelEvent? {
        let core = self.core
        return try await loop.receive(receiveCounter.next()) { core.receive($0, $1) } cancel: { core.cancelReceive($0) }
    }

    /// Sends one frame; returns once it is written to the socket.
    ///
    /// - Throws: ``TransportError/closedLocally`` after the connection ended;
    ///   ``TransportError/timedOut`` when the sender did not take it within
    ///   ``TransportConfiguration/writeTimeout``; a framing error for a frame outside the cap.
    public func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let core = self.core
        try await loop.wait(forThrowing: { core.send(frame, $0) })
    }

    /// Closes the connection (the channel has one peer).
    public func disconnect(_ peer: FramePeer) async {
        await close()
    }

    /// Closes cleanly: frames already sent reach the sender, which gets
    /// ``TransportConfiguration/closeLinger`` to close its side. A waiting ``receive()``
    /// returns `nil`. Idempotent.
    public func close() async {
        let core = self.core
        await loop.wait { core.close($0) }
    }
}
