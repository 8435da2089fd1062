import AccountHandoff

/// How the transport's async calls wait for work on the loop's thread: the loop is handed a
/// continuation, and the calling task is suspended until the loop resumes it.
extension EventLoop {
    /// Runs `start` on the loop's thread with a continuation, and waits until it is resumed.
    func wait<Value>(for start: @escaping @Sendable (CheckedContinuation<Value, Never>) -> Void) async -> Value {
        await withCheckedContinuation { continuation in execute { start(continuation) } }
    }

    /// Runs `start` on the loop's thread with a continuation, and waits until it is resumed
    /// or fails. When the calling task is cancelled meanwhile, `cancel` runs on the loop's
    /// thread, and must resume the continuation (with `CancellationError`) if it still waits.
    func wait<Value>(forThrowing start: @escaping @Sendable (CheckedContinuation<Value, any Error>) -> Void,
                     onCancel cancel: (@Sendable () -> Void)? = nil) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in execute { start(continuation) } }
        } onCancel: {
            if let cancel { execute(cancel) }
        }
    }

    /// A channel's `receive()`: the core's event for call `identifier`, which the core forgets
    /// (throwing `CancellationError`) when the calling task is cancelled.
    func receive(_ identifier: UInt64,
                 start: @escaping @Sendable (UInt64, CheckedContinuation<FrameChannelEvent?, any Error>) -> Void,
                 cancel: @escaping @Sendable (UInt64) -> Void) async throws -> FrameChannelEvent? {
        try await wait(forThrowing: { start(identifier, $0) }, onCancel: { cancel(identifier) })
    }
}
