import AccountHandoff

/// The driver waiting in a channel's `receive()`, kept on the loop thread by both the
/// listener's and the connection's core: one reader at a time, a cancelled reader leaves with
/// `CancellationError`, and the next event (or the end, or a failure) goes to whoever waits.
struct ReceiveWaiter {
    private var waiting: (identifier: UInt64, continuation: CheckedContinuation<FrameChannelEvent?, any Error>)?

    /// Whether a driver waits.
    var isWaiting: Bool { waiting != nil }

    /// Whether `continuation` may wait: refuses it with ``TransportError/closedLocally`` while
    /// another reader waits (one reader at a time).
    func admits(_ continuation: CheckedContinuation<FrameChannelEvent?, any Error>) -> Bool {
        guard waiting == nil else {
            continuation.resume(throwing: TransportError.closedLocally)
            return false
        }
        return true
    }

    /// Keeps the reader of `receive()` call `identifier` waiting; only after ``admits(_:)``.
    mutating func wait(_ identifier: UInt64, _ continuation: CheckedContinuation<FrameChannelEvent?, any Error>) {
        precondition(waiting == nil, "one reader at a time")
        waiting = (identifier, continuation)
    }

    /// The `receive()` call `identifier` was cancelled: its reader leaves with `CancellationError`.
    mutating func cancel(_ identifier: UInt64) {
        guard let waiting, waiting.identifier == identifier else { return }
        self.waiting = nil
        waiting.continuation.resume(throwing: CancellationError())
    }

    /// Hands `event` (`nil`: the channel ended) to the waiting reader, if there is one.
    mutating func resume(returning event: FrameChannelEvent?) {
        guard let waiting else { return }
        self.waiting = nil
        waiting.continuation.resume(returning: event)
    }

    /// Fails the waiting reader, if there is one.
    mutating func resume(throwing error: any Error) {
        guard let waiting else { return }
        self.waiting = nil
        waiting.continuation.resume(throwing: error)
    }
}
