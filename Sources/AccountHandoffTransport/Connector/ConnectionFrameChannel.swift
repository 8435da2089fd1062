import AccountHandoff

/// The receiver's side of the transport as a ``AccountHandoff/FrameChannel``: one admitted
/// connection to the sender named by a QR (Spec 11.4, 11.8).
///
/// ```swift
/// let session = HandoffReceiverSession(payload: payload, importer: importer, authenticator: gate,
///                                      registry: registry) { payload in
///     try await ConnectionFrameChannel.connect(to: payload)
/// }
/// ```
///
/// Every wait before the session starts is bounded: the connect by
/// ``TransportConfiguration/connectTimeout``, the challenge by
/// ``TransportConfiguration/admissionTimeout``. Frames are read one at a time as the session
/// asks for them. All the work happens on the process's transport event loop; no call blocks.
public final class ConnectionFrameChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: the mutable state lives in `core`, which only the event
    // loop's thread touches.

    /// The one peer: the sender.
    public static let sender = ConnectionCore.peer

    /// How long the receiver waits before connecting again when the sender closed a
    /// connection before challenging it (its listener was full, Spec 11.6).
    static let retryDelay: Duration = .milliseconds(250)

    /// The sender's address this channel connected to.
    public let endpoint: TCPRendezvous.Endpoint

    private let core: ConnectionCore
    private let loop: EventLoop
    private let receiveCounter = Counter()

    private init(endpoint: TCPRendezvous.Endpoint, core: ConnectionCore, loop: EventLoop) {
        self.endpoint = endpoint
        self.core = core
        self.loop = loop
    }

    deinit {
        let core = self.core
        loop.execute { core.abandon() }
    }

    /// Connects to the sender named by the QR's rendezvous token and passes admission; the
    /// channel is then ready for the hello.
    ///
    /// The direct address is checked against `addressPolicy` before any connection is made. A
    /// connection the sender closes before challenging it (its listener was full) is tried
    /// again after a short pause, while the connect and admission timeouts last. (A token with
    /// a relay will race a relayed connection against the direct one, Spec 11.8; this version
    /// connects directly only.)
    ///
    /// - Throws: ``TransportError/unsupportedRendezvous(_:)`` for a token it cannot read;
    ///   ``TransportError/relayNotSupported`` for a relay-only token;
    ///   ``TransportError/directAddressRefused(_:_:)``; ``TransportError/connectionRefused``;
    ///   ``TransportError/timedOut`` (no connection, or no challenge, in time);
    ///   ``TransportError/notAHandoffSender``; ``TransportError/codeRenewed`` when the sender
    ///   now serves another QR (the session ends as `expired`);
    ///   ``AccountHandoff/HandoffError/secureMemoryUnavailable(_:)``; `CancellationError` when
    ///   the calling task is cancelled.
    public static func connect(to payload: SessionPayload, configuration: TransportConfiguration = .standard,
                               addressPolicy: DirectAddressPolicy = .localNetworks) async throws -> ConnectionFrameChannel {
        let rendezvous: TCPRendezvous
        do { rendezvous = try TCPRendezvous(token: payload.rendezvous) } catch {
            throw TransportError.unsupportedRendezvous(error)
        }
        guard let endpoint = rendezvous.direct else { throw TransportError.relayNotSupported }
        try addressPolicy.check(endpoint.address)
        let keys = try TransportKeys(payload: payload)
        let loop = try EventLoop.shared()
        let giveUp = ContinuousClock.now + configuration.connectTimeout + configuration.admissionTimeout
        while true {
            do {
                return try await attempt(endpoint, keys: keys, configuration: configuration, loop: loop)
            } catch TransportError.closedByPeer where ContinuousClock.now + retryDelay < giveUp {
                try await Task.sleep(for: retryDelay)
            }
        }
    }

    /// One direct connection, admitted.
    private static func attempt(_ endpoint: TCPRendezvous.Endpoint, keys: TransportKeys, configuration: TransportConfiguration,
                                loop: EventLoop) async throws -> ConnectionFrameChannel {
        let core = ConnectionCore(loop: loop, configuration: configuration, keys: keys)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.execute { core.connect(to: endpoint, continuation) }
            }
        } onCancel: {
            loop.execute { core.cancelAdmission() }
        }
        return ConnectionFrameChannel(endpoint: endpoint, core: core, loop: loop)
    }

    /// The connection's descriptor (test hook).
    package var descriptors: [Int32] {
        get async {
            let core = self.core
            return await withCheckedContinuation { continuation in
                loop.execute { continuation.resume(returning: core.descriptors) }
            }
        }
    }

    // MARK: FrameChannel

    /// The next frame from the sender, then `.peerLeft` once when the connection ended, then
    /// `nil`; `nil` too once closed. The frame returned before counts as processed now.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled.
    public func receive() async throws -> FrameChannelEvent? {
        let identifier = receiveCounter.next()
        let core = self.core
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FrameChannelEvent?, any Error>) in
                loop.execute { core.receive(identifier, continuation) }
            }
        } onCancel: {
            loop.execute { core.cancelReceive(identifier) }
        }
    }

    /// Sends one frame; returns once it is written to the socket.
    ///
    /// - Throws: ``TransportError/closedLocally`` after the connection ended;
    ///   ``TransportError/timedOut`` when the sender did not take it within
    ///   ``TransportConfiguration/writeTimeout``; a framing error for a frame outside the cap.
    public func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let core = self.core
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            loop.execute { core.send(frame, continuation) }
        }
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
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { core.close(continuation) }
        }
    }
}
