import CSerialJobs

/// Runs the tasks and actors of one fuzz input on the fuzzer's own thread, one job at a time
/// in the order they were enqueued (see `CSerialJobs.h`), so an input of the driver world
/// always runs the same way.
enum SerialJobs {
    /// Starts capturing this thread's jobs.
    static func begin() { serial_jobs_begin() }

    /// Stops capturing.
    static func end() { serial_jobs_end() }

    /// Runs jobs until none is left; returns `false` if `limit` jobs ran and some remain
    /// (a session that never settles).
    @discardableResult
    static func settle(limit: Int = 200_000) -> Bool {
        serial_jobs_drain(limit)
        return serial_jobs_pending() == 0
    }

    /// Jobs waiting to run.
    static var pending: Int { serial_jobs_pending() }
}
