import Foundation

/// What both session drivers own besides their state machine: the update stream, the ordered
/// outbound queue, the deadline signal and the tasks waiting for the outcome (Spec 6.7).
struct SessionRuntime<Update: Sendable, Outcome: Sendable> {
    let updates: AsyncStream<Update>
    let outbound = OutboundQueue()
    let deadlineChanges: AsyncStream<Void>
    private let updateSink: AsyncStream<Update>.Continuation
    private let deadlineSink: AsyncStream<Void>.Continuation
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    private var ignored = IgnoredFrameCounter()
    private(set) var outcome: Outcome?
    /// Set once ``SessionDriver/run(over:)`` started, so a second call only waits.
    var running = false
    /// Sees every update as it is shown: the driver's snapshot.
    var observer: (@Sendable (Update) -> Void)?

    /// How many updates wait for a reader at most. A session shows a few dozen (ignored frames
    /// are reported at 1, 10, 100, ...); past the limit the oldest are dropped, never the
    /// final one, and the snapshot holds what they said.
    static var updateBufferLimit: Int { 64 }

    init() {
        (updates, updateSink) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .bufferingNewest(Self.updateBufferLimit))
        (deadlineChanges, deadlineSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Shows `update` unless the session already ended.
    func yield(_ update: Update) {
        guard outcome == nil else { return }
        observer?(update)
        updateSink.yield(update)
    }

    /// The state machine's next deadline may have moved: wake the timer.
    func deadlineMayHaveChanged() { deadlineSink.yield() }

    /// Counts an ignored frame; `true` when this count should be shown (1, 10, 100, ...).
    mutating func recordIgnored() -> (count: Int, report: Bool) {
        let report = ignored.record()
        return (ignored.count, report)
    }

    /// Records the outcome (the first one wins), shows `final`, ends the streams and wakes
    /// every waiter. Returns the outcome in force.
    mutating func finish(_ outcome: Outcome, final: Update) -> Outcome {
        if let existing = self.outcome { return existing }
        self.outcome = outcome
        outbound.finish()
        observer?(final)
        updateSink.yield(final)
        updateSink.finish()
        deadlineSink.finish()
        finishWaiters.forEach { $0.resume() }
        finishWaiters.removeAll()
        return outcome
    }

    mutating func addWaiter(_ waiter: CheckedContinuation<Void, Never>) {
        if outcome != nil { waiter.resume() } else { finishWaiters.append(waiter) }
    }
}

/// The run loop both drivers share: one writer drains the outbound queue in order, one reader
/// pulls the channel's events one at a time (so a flood backs up into the transport, Spec 11.6),
/// and one timer feeds `tick` at the state machine's next deadline, never earlier.
protocol SessionDriver: Actor {
    associatedtype Update: Sendable
    associatedtype Outcome: Sendable
    var runtime: SessionRuntime<Update, Outcome> { get set }
    var clock: any HandoffClock { get }
    /// The state machine's next deadline, or `nil` while none is due.
    var nextDeadline: Date? { get }
    /// Feeds one channel event to the state machine; returns what the channel must be told.
    /// The reader pulls the next event only after this returns.
    func handle(_ event: FrameChannelEvent) async -> [ChannelDirective]
    /// Feeds `tick`.
    func tick()
    /// Feeds `transportLost` (the channel ended or a send failed).
    func channelLost(_ peer: FramePeer?)
}

/// What a driver asks its channel after an event, awaited in order by the reader before it
/// pulls the next event.
enum ChannelDirective: Sendable {
    case bind(FramePeer)
    case noteIgnored(FramePeer)
    case disconnect(FramePeer)
    /// The typed offer to serve, after the directives before it (the typed way paired: the
    /// peer is bound before the other typed connections are closed).
    case serveTyped(TypedOffer?)
}

extension SessionDriver {
    /// Runs the loop over `channel` until the outcome is known, lets the last frames leave,
    /// then closes the channel.
    func runLoop(over channel: any FrameChannel) async {
        let writer = Task { await self.writeFrames(to: channel) }
        let reader = Task { await self.readFrames(from: channel) }
        let timer = Task { await self.keepTime() }
        await waitForOutcome()
        await writer.value
        await channel.close()
        reader.cancel()
        timer.cancel()
    }

    /// Returns once the outcome is known.
    func waitForOutcome() async {
        await withCheckedContinuation { runtime.addWaiter($0) }
    }

    private func writeFrames(to channel: any FrameChannel) async {
        for await item in runtime.outbound.items {
            switch item {
            case .frame(let frame, let peer):
                do { try await channel.send(frame, to: peer) } catch { channelLost(peer) }
            case .typedOffer(let offer):
                await channel.serveTyped(offer)
            }
        }
    }

    private func readFrames(from channel: any FrameChannel) async {
        do {
            while runtime.outcome == nil, let event = try await channel.receive() {
                for directive in await handle(event) {
                    switch directive {
                    case .bind(let peer): await channel.bind(peer)
                    case .noteIgnored(let peer): await channel.noteIgnoredFrame(from: peer)
                    case .disconnect(let peer): await channel.disconnect(peer)
                    case .serveTyped(let offer): await channel.serveTyped(offer)
                    }
                }
            }
        } catch {}
        if runtime.outcome == nil { channelLost(nil) }
    }

    private func keepTime() async {
        var changes = runtime.deadlineChanges.makeAsyncIterator()
        while runtime.outcome == nil {
            guard let deadline = nextDeadline else {
                guard await changes.next() != nil else { return }
                continue
            }
            do { try await clock.sleep(until: deadline) } catch { return }
            tick()
        }
    }
}
