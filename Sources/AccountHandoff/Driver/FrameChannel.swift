/// One peer of a ``FrameChannel``: an opaque identity, for example a TCP connection. A
/// receiver's channel has a single peer; a sender's listener may have several.
public struct FramePeer: Hashable, Sendable, CustomStringConvertible {
    /// The channel's identifier for the peer.
    public let id: Int

    /// A peer with this identifier.
    public init(id: Int) { self.id = id }

    /// `#id`.
    public var description: String { "#\(id)" }
}

/// What a ``FrameChannel`` reports.
public enum FrameChannelEvent: Sendable {
    /// A whole frame arrived from `peer`.
    case frame([UInt8], from: FramePeer)
    /// `peer`'s connection ended (closed, timed out, or broke the framing).
    case peerLeft(FramePeer)
    /// Typed way, at a sending device (Spec 6.8): `peer` reached this device by `route` for
    /// the nameplate the channel serves (``FrameChannel/serveTyped(_:)``) and waits for its
    /// `pakeInit`. The session answers with a frame to `peer`, or disconnects it.
    case typedConnection(FramePeer, route: TypedRoute)
    /// Typed way, at a sending device: the local network's name of `nameplate` is taken
    /// (another device advertises it). The session draws a new code and serves it.
    case typedNameTaken(TypedCode.Nameplate)
}

/// What a sending session offers of the typed way, for its channel to advertise on the local
/// network and to wait for at the relay (Spec 11.10, 12.8). Public: the nameplate only.
public struct TypedOffer: Hashable, Sendable, CustomStringConvertible {
    /// The nameplate of the code shown now.
    public let nameplate: TypedCode.Nameplate
    /// The routes the app offers (never empty).
    public let routes: Set<TypedRoute>

    /// An offer.
    public init(nameplate: TypedCode.Nameplate, routes: Set<TypedRoute>) {
        self.nameplate = nameplate
        self.routes = routes
    }

    /// `nameplate NNN by localNetwork, relay`.
    public var description: String {
        "nameplate \(nameplate) by \(routes.map(\.description).sorted().joined(separator: ", "))"
    }
}

/// The small transport contract the session drivers need: whole frames in order, to and from
/// identified peers. The transport is not trusted for anything but delivery; the protocol
/// authenticates every byte (Spec 3.1).
///
/// The channel must deliver whole frames (never split or merge them) and send frames to one
/// peer in the order ``send(_:to:)`` is called.
///
/// Events are pulled, one at a time, with ``receive()``: a channel reads from its peers only
/// as fast as the driver asks, so a flood backs up into the peers' sockets instead of into
/// memory. A frame that ``receive()`` returned counts as processed once the driver calls
/// ``receive()`` again; by then the driver has already called ``bind(_:)``,
/// ``noteIgnoredFrame(from:)`` or ``disconnect(_:)`` for it where the session asked for that.
/// A channel with deadlines for its peers must not hold a frame's wait against its peer
/// (Spec 11.4).
public protocol FrameChannel: Sendable {
    /// The next event, waiting until there is one; `nil` once the channel is closed.
    ///
    /// Called by one task at a time (the driver's reader).
    ///
    /// - Throws: when the channel itself fails (the session then ends as `transportLost`), or
    ///   `CancellationError` when the calling task is cancelled.
    func receive() async throws -> FrameChannelEvent?

    /// Sends one frame to `peer`, after every frame sent to it before.
    ///
    /// - Throws: when the frame cannot be delivered to `peer`.
    func send(_ frame: [UInt8], to peer: FramePeer) async throws

    /// The session's peer is now known (its hello authenticated). A channel with several
    /// peers may lift its admission deadline for it.
    func bind(_ peer: FramePeer) async

    /// A frame from `peer` was ignored by the session. A channel may close a peer that is not
    /// bound after a few of these, so a hostile peer cannot flood the session.
    func noteIgnoredFrame(from peer: FramePeer) async

    /// Closes one peer's connection.
    func disconnect(_ peer: FramePeer) async

    /// The sender now shows `payload`'s QR (the first one, or a renewed one, Spec 11.8). A
    /// channel that admits connections with the QR's transport keys (Spec 11.4) switches to
    /// this payload's keys; connections for an older QR no longer get through.
    func serve(_ payload: SessionPayload) async

    /// Typed way, at a sending device: the session now shows a typed code with this offer (the
    /// first one, a new one after a wrong guess or a taken name, or a renewed QR's), or `nil`:
    /// the typed way is withdrawn. A channel with a typed way advertises the nameplate on the
    /// local network (Spec 11.10) and waits at the relay with its token (12.8) for the offered
    /// routes, and reports each connection that comes for it as
    /// ``FrameChannelEvent/typedConnection(_:route:)``. A new offer or `nil` stops serving the
    /// old nameplate and closes its typed connections that the session did not bind, after the
    /// frames already sent to them (a `pakeRefused`) left.
    func serveTyped(_ offer: TypedOffer?) async

    /// Closes the channel, letting frames already sent reach their peers. Idempotent; a
    /// waiting ``receive()`` returns `nil`.
    func close() async
}

extension FrameChannel {
    /// Channels with a single peer have nothing to bind.
    public func bind(_ peer: FramePeer) async {}
    /// Channels with a single peer keep it regardless.
    public func noteIgnoredFrame(from peer: FramePeer) async {}
    /// Channels with a single peer close it with ``close()``.
    public func disconnect(_ peer: FramePeer) async {}
    /// Channels that admit every connection need no keys.
    public func serve(_ payload: SessionPayload) async {}
    /// Channels without a typed way advertise nothing; they never report a typed connection.
    public func serveTyped(_ offer: TypedOffer?) async {}
}
