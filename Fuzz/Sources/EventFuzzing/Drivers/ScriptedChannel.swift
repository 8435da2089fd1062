import AccountHandoff

/// A frame channel the script drives: what the session sends waits in ``outbox`` until the
/// script delivers, drops or damages it; what arrives is what the script pushes (frames from
/// any peer, peers leaving), one event per ``receive()``. The script can make the channel fail
/// (a receive that throws, sends to a peer that throw). Like a channel with a single peer, it
/// leaves binding, ignored frames, disconnects and serving to the protocol's defaults;
/// ``ObservingChannel`` records them.
///
/// Used on the fuzzer's thread only (``SerialJobs``).
final class ScriptedChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    struct Sent {
        let frame: [UInt8]
        let peer: FramePeer
    }

    private var arrivals: [FrameChannelEvent] = []
    private var waiting: CheckedContinuation<FrameChannelEvent?, any Error>?
    private(set) var closed = false
    /// Frames the session sent, not yet delivered or dropped (a close lets them arrive).
    var outbox: [Sent] = []
    /// Peers whose sends throw.
    var brokenPeers: Set<FramePeer> = []
    /// Whether the next `receive()` throws (the channel itself failed).
    var failsNextReceive = false
    /// The first frame the session sent (a receiver's hello).
    private(set) var firstSent: [UInt8]?

    func receive() async throws -> FrameChannelEvent? {
        if !arrivals.isEmpty { return arrivals.removeFirst() }
        if closed { return nil }
        if failsNextReceive {
            failsNextReceive = false
            throw ChannelFailure()
        }
        return try await withCheckedThrowingContinuation { waiting = $0 }
    }

    func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        guard !closed, !brokenPeers.contains(peer) else { throw ChannelFailure() }
        if firstSent == nil { firstSent = frame }
        outbox.append(Sent(frame: frame, peer: peer))
    }

    func close() async {
        closed = true
        if let waiting {
            self.waiting = nil
            waiting.resume(returning: nil)
        }
    }

    /// An event arrives from the network.
    func arrive(_ event: FrameChannelEvent) {
        guard !closed else { return }
        if let waiting {
            self.waiting = nil
            waiting.resume(returning: event)
        } else {
            arrivals.append(event)
        }
    }

    /// Makes a waiting `receive()` (or the next one) throw.
    func fail() {
        if let waiting {
            self.waiting = nil
            waiting.resume(throwing: ChannelFailure())
        } else {
            failsNextReceive = true
        }
    }

    struct ChannelFailure: Error {}
}

/// A sender's channel with several peers: a ``ScriptedChannel`` that also records what the
/// session tells it about its peers (Spec 6.7) and the QR it serves.
final class ObservingChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    let core: ScriptedChannel
    private(set) var bound: [FramePeer] = []
    private(set) var disconnected: [FramePeer] = []
    private(set) var ignoredReports = 0
    private(set) var served: [SessionPayload] = []

    init(_ core: ScriptedChannel) { self.core = core }

    func receive() async throws -> FrameChannelEvent? { try await core.receive() }
    func send(_ frame: [UInt8], to peer: FramePeer) async throws { try await core.send(frame, to: peer) }
    func close() async { await core.close() }
    func bind(_ peer: FramePeer) async { bound.append(peer) }
    func noteIgnoredFrame(from peer: FramePeer) async { ignoredReports += 1 }
    func disconnect(_ peer: FramePeer) async { disconnected.append(peer) }
    func serve(_ payload: SessionPayload) async { served.append(payload) }
}
