import AccountHandoff
import Foundation

/// Two ends of an in-memory frame transport, for tests of the session drivers and of the screens
/// an app builds on them: whatever one end sends, the other end's `receive()` returns, in order.
/// Either end can be cut to play a lost connection.
///
/// ```swift
/// let channels = InMemoryFrameChannel.pair()
/// let sender = HandoffSenderSession(account: account, rendezvous: try RendezvousToken(bytes: [1]), channel: channels.sender,
///                                   credential: { _ in try SecretBytes(utf8: "s3cret") },
///                                   authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory())
/// let receiverEnd = channels.receiver  // the receiver session's connector returns it
/// ```
public final class InMemoryFrameChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: every mutable property is touched only under `lock`.
    private let lock = NSLock()
    private let stream: AsyncThrowingStream<FrameChannelEvent, any Error>
    private let sink: AsyncThrowingStream<FrameChannelEvent, any Error>.Continuation
    private weak var peerEnd: InMemoryFrameChannel?
    private var closed = false
    private var sent: [[UInt8]] = []
    private var offers: [TypedOffer?] = []
    private var forward: (@Sendable ([UInt8]) -> Void)?
    /// How this end names its only peer.
    public let peer: FramePeer

    private init(peer: FramePeer) {
        self.peer = peer
        (stream, sink) = AsyncThrowingStream.makeStream(of: FrameChannelEvent.self)
    }

    /// A connected pair: `(sender end, receiver end)`.
    public static func pair() -> (sender: InMemoryFrameChannel, receiver: InMemoryFrameChannel) {
        let sender = InMemoryFrameChannel(peer: FramePeer(id: 0))
        let receiver = InMemoryFrameChannel(peer: FramePeer(id: 0))
        sender.peerEnd = receiver
        receiver.peerEnd = sender
        return (sender, receiver)
    }

    /// A connected pair for the typed way (Spec 6.8): the sender end reports its one peer as a
    /// typed connection that came by `route` and waits for its `pakeInit`, as a transport does
    /// once a receiving device reached it for the nameplate it serves.
    public static func typedPair(route: TypedRoute) -> (sender: InMemoryFrameChannel, receiver: InMemoryFrameChannel) {
        let ends = pair()
        ends.sender.sink.yield(.typedConnection(ends.sender.peer, route: route))
        return ends
    }

    /// Reports `event` at this end, as a transport would (a typed connection, a taken name).
    public func report(_ event: FrameChannelEvent) {
        let open = lock.withLock { !closed }
        if open { sink.yield(event) }
    }

    /// Every typed offer the session served on this end, in order (`nil`: withdrawn).
    public var servedOffers: [TypedOffer?] { lock.withLock { offers } }

    /// Records `offer`; ``servedOffers`` returns it.
    public func serveTyped(_ offer: TypedOffer?) async {
        lock.withLock { offers.append(offer) }
    }

    /// Every frame this end sent, in order.
    public var sentFrames: [[UInt8]] { lock.withLock { sent } }

    /// The next frame the other end sent, or `nil` once this end is closed.
    public func receive() async throws -> FrameChannelEvent? {
        // One reader at a time (FrameChannel's contract); each call continues the one stream.
        var iterator = stream.makeAsyncIterator()
        return try await iterator.next()
    }

    /// Hands `frame` to the other end at once.
    ///
    /// - Throws: `CancellationError` once this end is closed.
    public func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let target: InMemoryFrameChannel? = try lock.withLock {
            guard !closed else { throw CancellationError() }
            sent.append(frame)
            return peerEnd
        }
        target?.deliver(frame, from: self.peer)
    }

    /// Injects a frame as if the peer had sent it.
    public func deliver(_ frame: [UInt8], from peer: FramePeer) {
        let (open, forward) = lock.withLock { (!closed, self.forward) }
        guard open else { return }
        if let forward { forward(frame) } else { sink.yield(.frame(frame, from: peer)) }
    }

    /// Hands every frame that arrives at this end to `forward` instead of ``receive()``
    /// (``InMemoryTypedHub`` joins several pairs into one sender channel this way).
    func forwardArrivals(to forward: @escaping @Sendable ([UInt8]) -> Void) {
        lock.withLock { self.forward = forward }
    }

    /// Plays a lost connection on both ends: each reports its peer left.
    public func cut() {
        for end in [self, lock.withLock { peerEnd }].compactMap({ $0 }) {
            end.sink.yield(.peerLeft(end.peer))
        }
    }

    /// Closes this end; its waiting `receive()` returns `nil`.
    public func close() async {
        let wasOpen = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if wasOpen { sink.finish() }
    }
}
