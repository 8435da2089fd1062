#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections a listener may hold without starving the rest of the process of
/// file descriptors.
enum DescriptorBudget {
    /// `configured`, or half of the soft `RLIMIT_NOFILE` when that is smaller (at least 1).
    static func connectionCapacity(configured: Int) -> Int {
        guard let limit = softDescriptorLimit() else { return configured }
        return max(1, min(configured, limit / 2))
    }

    /// The process's soft descriptor limit (unlimited reads as a huge number); `nil` when it
    /// cannot be read.
    static func softDescriptorLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let status = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard status == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}
