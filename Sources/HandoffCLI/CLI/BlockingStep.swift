import AccountHandoff

/// Runs a step of a command that blocks (standard input, a file, the store, the keyring) on
/// the I/O pool, so the command's task waits without holding a Swift concurrency thread.
package func blockingStep<Success>(_ step: sending @escaping () throws(CLIError) -> sending Success) async throws(CLIError) -> sending Success {
    try await BlockingIOPool.shared.run { _ throws(CLIError) in try step() }
}
