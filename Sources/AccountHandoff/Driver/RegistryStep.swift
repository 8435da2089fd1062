/// Runs the state machine's steps that reach the registry (``HandoffSender``'s `start`,
/// ``HandoffReceiver``'s `scan`) where they may block: on the ``BlockingIOPool`` when the
/// registry reads and writes a storage, right here when it only keeps memory.
enum RegistryStep {
    static func run<Success, Failure: Error>(
        blocking: Bool, _ step: sending @escaping () throws(Failure) -> sending Success
    ) async throws(Failure) -> sending Success {
        guard blocking else { return try step() }
        return try await BlockingIOPool.shared.run { _ throws(Failure) in try step() }
    }
}

/// The session's randomness source, carried to the pool thread of one ``RegistryStep`` and
/// back.
struct SessionRandomSource: @unchecked Sendable {
    // Safety of @unchecked Sendable: a session draws from its source only in the one step
    // that starts or scans, which it awaits before anything else draws, so no two threads
    // ever use the source at once.
    let source: any RandomSource
}
