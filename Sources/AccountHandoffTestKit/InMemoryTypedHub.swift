import AccountHandoff
import Foundation

/// An in-memory transport for the typed way (Spec 6.8, 11.10) with several receiving devices:
/// the sender end is the ``FrameChannel`` of a ``HandoffSenderSession``; each
/// ``connect(route:)`` plays a receiving device that reached the nameplate the sender serves
/// (through DNS-SD or the relay) and returns that device's channel.
///
/// ```swift
/// let hub = InMemoryTypedHub()
/// let sender = HandoffSenderSession(account: account, rendezvous: try RendezvousToken(bytes: [1]), channel: hub,
///                                   credential: { _ in try SecretBytes(utf8: "s3cret") },
///                                   authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
///                                   options: SenderSessionOptions(typedRoutes: [.localNetwork]))
/// let device = hub.connect(route: .localNetwork)  // a typed receiver session's connector returns it
/// ```
public final class InMemoryTypedHub: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: every mutable property is touched only under `lock`.
    private let lock = NSLock()
    private let stream: AsyncThrowingStream<FrameChannelEvent, any Error>
    private let sink: AsyncThrowingStream<FrameChannelEvent, any Error>.Continuation
    private var devices: [Int: InMemoryFrameChannel] = [:]
    private var offers: [TypedOffer?] = []
    private var closed = false

    /// A hub with no device connected yet.
    public init() {
        (stream, sink) = AsyncThrowingStream.makeStream(of: FrameChannelEvent.self)
    }

    /// A receiving device reaches the sender by `route`: the sender sees a typed connection,
    /// and the returned channel is the device's end of it.
    public func connect(route: TypedRoute) -> InMemoryFrameChannel {
        let ends = InMemoryFrameChannel.pair()
        let peer: FramePeer = lock.withLock {
            let peer = FramePeer(id: devices.count + 1)
            devices[peer.id] = ends.sender
            return peer
        }
        // The device's frames reach the hub as the frames of its peer.
        let sink = self.sink
        ends.sender.forwardArrivals { frame in sink.yield(.frame(frame, from: peer)) }
        sink.yield(.typedConnection(peer, route: route))
        return ends.receiver
    }

    /// Every typed offer the session served, in order (`nil`: withdrawn).
    public var servedOffers: [TypedOffer?] { lock.withLock { offers } }

    /// The next event: a device's typed connection or frame, or a device that left.
    public func receive() async throws -> FrameChannelEvent? {
        var iterator = stream.makeAsyncIterator()
        return try await iterator.next()
    }

    /// Hands `frame` to the device `peer`.
    ///
    /// - Throws: `CancellationError` once that device's end is closed.
    public func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let device = lock.withLock { devices[peer.id] }
        try await device?.send(frame, to: peer)
    }

    /// Cuts the device `peer`'s connection; its end reports the sender left.
    public func disconnect(_ peer: FramePeer) async {
        let device = lock.withLock { devices.removeValue(forKey: peer.id) }
        device?.cut()
    }

    /// Records `offer`; ``servedOffers`` returns it.
    public func serveTyped(_ offer: TypedOffer?) async {
        lock.withLock { offers.append(offer) }
    }

    /// Closes the hub; its waiting ``receive()`` returns `nil`.
    public func close() async {
        let wasOpen = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if wasOpen { sink.finish() }
    }
}
