/// Runs a driver's steps that may block where they may: on the ``BlockingIOPool`` when they
/// do (the state machine's steps that reach a registry with storage, ``HandoffSender``'s
/// `start` and ``HandoffReceiver``'s `scan`; a preparation's check that asks its stores), right
/// here when they only touch memory.
enum BlockingStep {
    static func run<Success, Failure: Error>(
        blocking: Bool, _ step: sending @escaping () throws(Failure) -> sending Success
    ) async throws(Failure) -> sending Success {
        guard blocking else { return try step() }
        return try await BlockingIOPool.shared.run { _ throws(Failure) in try step() }
    }
}

/// The session's randomness source, carried to the pool thread of one ``BlockingStep`` and
/// back.
struct SessionRandomSource: @unchecked Sendable {
    // Safety of @unchecked Sendable: a session draws from its source only in the one step
    // that starts or scans, which it awaits before anything else draws, so no two threads
    // ever use the source at once.
    let source: any RandomSource
}
