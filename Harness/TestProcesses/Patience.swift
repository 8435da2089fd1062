/// How long a test waits for an event, and the deadlines of the code under test that a test
/// does not test (a transport's admission and bind deadlines, a code's lifetime): long enough
/// that only a hung test meets one on a loaded two-core machine. There, a test's task can wait
/// minutes for a thread (Swift Testing starts every test at once, and the CPU-bound ones hold
/// the two threads of the concurrency pool; measured: 120 s while two busy loops and a build
/// shared the cores). Every wait returns as soon as the event comes, so the deadline costs
/// nothing when the machine is quick.
public enum Patience {
    /// The deadline of a wait for something that must happen, and of a deadline under test
    /// that a test does not test (600 s: the longest code lifetime the protocol allows).
    public static let deadline: Duration = .seconds(600)

    /// Waits until `condition` holds (checked every 10 ms) or `timeout` passes; whether it held.
    public static func waitUntil(within timeout: Duration = deadline, _ condition: () async -> Bool) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }
}
