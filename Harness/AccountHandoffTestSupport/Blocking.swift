import AccountHandoff

/// Runs a test's blocking step (a store, a registry file, a credential file) on the I/O pool,
/// as an app must, and returns its result to the test's task, where the expectations stay
/// (Swift Testing ties them to the task). With the blocking-call check on, a blocking call
/// made right on the test's task stops the run.
package func blocking<Success>(_ step: sending @escaping () throws -> sending Success) async throws -> sending Success {
    try await BlockingIOPool.shared.run { _ in try step() }
}

/// Runs `step` on the I/O pool again, every 20 ms, until `done` holds for what it returns or
/// `limit` has passed, and returns the last result. For what a driver writes shortly after it
/// reports an outcome: a registry's outcome is written on the I/O pool, best effort (Spec 6.3),
/// so a test that reads the file must wait for it rather than race it.
package func blockingUntil<Success: Sendable>(within limit: Duration = .seconds(60), _ step: @escaping @Sendable () throws -> Success,
                                             satisfies done: @Sendable (Success) -> Bool) async throws -> Success {
    let deadline = ContinuousClock.now + limit
    while true {
        let result = try await BlockingIOPool.shared.run { _ in try step() }
        if done(result) || ContinuousClock.now >= deadline { return result }
        try await Task.sleep(for: .milliseconds(20))
    }
}
