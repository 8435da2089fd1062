import AccountHandoff

/// Runs a test's blocking step (a store, a registry file, a credential file) on the I/O pool,
/// as an app must, and returns its result to the test's task, where the expectations stay
/// (Swift Testing ties them to the task). With the blocking-call check on, a blocking call
/// made right on the test's task stops the run.
package func blocking<Success>(_ step: sending @escaping () throws -> sending Success) async throws -> sending Success {
    try await BlockingIOPool.shared.run { _ in try step() }
}
