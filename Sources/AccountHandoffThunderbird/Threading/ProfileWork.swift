import AccountHandoff

/// Where the blocking work on Thunderbird profiles runs (files, locks, NSS): a
/// ``BlockingIOPool`` of one thread, so that none of it runs on a Swift concurrency thread,
/// jobs run one after another in the order they came, and NSS is only ever entered from that
/// one thread.
enum ProfileWork {
    /// The process's one lane for profile work.
    static let lane = BlockingIOPool(threadCount: 1, name: "handoff.thunderbird-profile")
}
