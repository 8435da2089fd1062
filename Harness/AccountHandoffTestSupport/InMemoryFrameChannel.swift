import AccountHandoff
import Foundation

/// Two ends of an in-memory frame transport, for tests of the session drivers: whatever one
/// end sends, the other end's `receive()` returns, in order. Either end can be cut to play a
/// lost connection. Test support only (`package`).
package final class InMemoryFrameChannel: FrameChannel, @unchecked Sendable {
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
    package let peer: FramePeer

    private init(peer: FramePeer) {
        self.peer = peer
        (stream, sink) = AsyncThrowingStream.makeStream(of: FrameChannelEvent.self)
    }

    /// A connected pair: `(sender end, receiver end)`.
    package static func pair() -> (sender: InMemoryFrameChannel, receiver: InMemoryFrameChannel) {
        let sender = InMemoryFrameChannel(peer: FramePeer(id: 0))
        let receiver = InMemoryFrameChannel(peer: FramePeer(id: 0))
        sender.peerEnd = receiver
        receiver.peerEnd = sender
        return (sender, receiver)
    }

    /// A connected pair for the typed way (Spec 6.8): the sender end reports its one peer as a
    /// typed connection that came by `route` and waits for its `pakeInit`, as a transport does
    /// once a receiving device reached it for the nameplate it serves.
    package static func typedPair(route: TypedRoute) -> (sender: InMemoryFrameChannel, receiver: InMemoryFrameChannel) {
        let ends = pair()
        ends.sender.sink.yield(.typedConnection(ends.sender.peer, route: route))
        return ends
    }

    /// Reports an event at this end, as a transport would (a typed connection, a taken name).
    package func report(_ event: FrameChannelEvent) {
        let open = lock.withLock { !closed }
        if open { sink.yield(event) }
    }

    /// Every typed offer the session served on this end, in order (`nil`: withdrawn).
    package var servedOffers: [TypedOffer?] { lock.withLock { offers } }

    package func serveTyped(_ offer: TypedOffer?) async {
        lock.withLock { offers.append(offer) }
    }

    /// Every frame this end sent, in order.
    package var sentFrames: [[UInt8]] { lock.withLock { sent } }

    package func receive() async throws -> FrameChannelEvent? {
        // One reader at a time (FrameChannel's contract); each call continues the one stream.
        var iterator = stream.makeAsyncIterator()
        return try await iterator.next()
    }

    package func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let target: InMemoryFrameChannel? = try lock.withLock {
            guard !closed else { throw CancellationError() }
            sent.append(frame)
            return peerEnd
        }
        target?.deliver(frame, from: self.peer)
    }

    /// Injects a frame as if the peer had sent it.
    package func deliver(_ frame: [UInt8], from peer: FramePeer) {
        let (open, forward) = lock.withLock { (!closed, self.forward) }
        guard open else { return }
        if let forward { forward(frame) } else { sink.yield(.frame(frame, from: peer)) }
    }

    /// Hands every frame that arrives at this end to `forward` instead of ``receive()``
    /// (``InMemoryTypedHub`` joins several pairs into one sender channel this way).
    package func forwardArrivals(to forward: @escaping @Sendable ([UInt8]) -> Void) {
        lock.withLock { self.forward = forward }
    }

    /// Plays a lost connection on both ends: each reports its peer left.
    package func cut() {
        for end in [self, lock.withLock { peerEnd }].compactMap({ $0 }) {
            end.sink.yield(.peerLeft(end.peer))
        }
    }

    package func close() async {
        let wasOpen = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if wasOpen { sink.finish() }
    }
}

/// A clock that moves only when told to, for expiry tests of the session drivers. Sleepers
/// wake when ``advance(by:)`` or ``set(_:)`` passes their deadline. Test support only.
package final class ManualHandoffClock: HandoffClock, @unchecked Sendable {
    // Safety of @unchecked Sendable: `time` and `sleepers` are touched only under `lock`.
    private let lock = NSLock()
    private var time: Date
    private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = []

    /// A clock that starts at `start`.
    package init(start: Date) { time = start }

    package func now() -> Date { lock.withLock { time } }

    package func sleep(until deadline: Date) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready: Bool = lock.withLock {
                if time >= deadline { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline passed.
    package func advance(by seconds: TimeInterval) { set(now().addingTimeInterval(seconds)) }

    /// Sets the clock (it may go back: sessions must not be fooled) and wakes due sleepers.
    package func set(_ date: Date) {
        let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
            time = date
            let ready = sleepers.filter { $0.deadline <= date }
            sleepers.removeAll { $0.deadline <= date }
            return ready.map(\.continuation)
        }
        due.forEach { $0.resume() }
    }

    /// How many tasks are waiting for a deadline.
    package var sleeperCount: Int { lock.withLock { sleepers.count } }
}
