/// A value a session driver keeps current by folding its updates into it (the snapshot a view
/// reads).
protocol UpdateFold: Sendable {
    associatedtype Update: Sendable
    init()
    /// Takes one update in, in the order the session shows them.
    mutating func apply(_ update: Update)
    /// Whether the session ended: nothing changes after this.
    var isFinal: Bool { get }
}

/// The latest snapshot of a session, readable from any thread without awaiting, and the
/// streams that follow it (each buffers only the newest value, so a slow reader skips to it).
final class SnapshotKeeper<Snapshot: UpdateFold>: @unchecked Sendable {
    // Safety of @unchecked Sendable: `current` and `followers` are only touched under `lock`.
    private let lock = UnfairLock()
    private var current = Snapshot()
    private var followers: [Int: AsyncStream<Snapshot>.Continuation] = [:]
    private var nextFollower = 0

    /// The snapshot now.
    var value: Snapshot { lock.withLock { current } }

    /// Folds `update` in and hands the new snapshot to every follower; after the final one the
    /// followers' streams finish.
    func apply(_ update: Snapshot.Update) {
        // Yielded under the lock, so followers see snapshots in order; finished outside it,
        // because finishing runs the stream's termination handler, which takes the lock.
        let ended: [AsyncStream<Snapshot>.Continuation] = lock.withLock {
            current.apply(update)
            for follower in followers.values { follower.yield(current) }
            guard current.isFinal else { return [] }
            defer { followers.removeAll() }
            return Array(followers.values)
        }
        ended.forEach { $0.finish() }
    }

    /// A stream of the snapshot, starting with the current one, until the session ended.
    func follow() -> AsyncStream<Snapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: Snapshot.self, bufferingPolicy: .bufferingNewest(1))
        let finished: Bool = lock.withLock {
            continuation.yield(current)
            guard !current.isFinal else { return true }
            let number = nextFollower
            nextFollower += 1
            followers[number] = continuation
            continuation.onTermination = { [weak self] _ in self?.stopFollowing(number) }
            return false
        }
        if finished { continuation.finish() }
        return stream
    }

    private func stopFollowing(_ number: Int) {
        lock.withLock { _ = followers.removeValue(forKey: number) }
    }
}
