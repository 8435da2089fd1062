#if os(Linux)
import Foundation
import Glibc

/// Starts `/bin/sleep 30` over and over on its own thread with `posix_spawn` (what an app's
/// helper launcher does), until stopped; the programs stay alive so that a test can look at
/// the descriptors they inherited, and are killed at the end.
final class ProgramSpawner: @unchecked Sendable {
    // Safety of @unchecked Sendable: `started` and `running` are only touched under `lock`.
    private let lock = NSLock()
    private var started: [pid_t] = []
    private var running = true
    private let finished = DispatchSemaphore(value: 0)
    /// Programs started at most, so a slow machine cannot pile up processes.
    private let limit = 400

    func start() {
        Thread { [self] in
            while isRunning, startedCount < limit {
                var pid: pid_t = 0
                let arguments = ["/bin/sleep", "30"]
                var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                if posix_spawn(&pid, "/bin/sleep", nil, nil, &argv, environ) == 0 { record(pid) }
            }
            finished.signal()
        }.start()
    }

    /// Stops starting programs and returns those started (still running).
    func stop() -> [pid_t] {
        lock.withLock { running = false }
        finished.wait()
        finished.signal()  // a second stop returns at once
        return lock.withLock { started }
    }

    /// Stops, then kills and reaps every program started.
    func stopAndKillAll() {
        for pid in stop() {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        lock.withLock { started = [] }
    }

    /// How many programs were started so far.
    var startedCount: Int { lock.withLock { started.count } }

    private var isRunning: Bool { lock.withLock { running } }
    private func record(_ pid: pid_t) { lock.withLock { started.append(pid) } }
}
#endif
