import HandoffCLI
import Foundation

/// The limit on memory this process may lock (`RLIMIT_MEMLOCK`, `ulimit -l`), which bounds how
/// many sessions' arenas, and so how many senders, can be pending at once (Spec 8.5).
struct LockLimit: Codable, Equatable {
    /// The soft limit in KiB; nil when unlimited.
    let kib: Int?
    /// Whether `mlock` is held to it: not when unlimited, and not for a Linux process with
    /// `CAP_IPC_LOCK` (root, normally), which may lock past it.
    let applies: Bool

    enum CodingKeys: String, CodingKey { case kib, applies }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kib, forKey: .kib)  // null when unlimited, never left out
        try container.encode(applies, forKey: .applies)
    }

    /// This process's limit now.
    static func current() -> LockLimit {
        var limit = rlimit()
        #if os(Linux)
        let status = getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit)
        let unlimited = rlim_t.max  // RLIM_INFINITY, which Swift does not import from Glibc
        #else
        let status = getrlimit(RLIMIT_MEMLOCK, &limit)
        let unlimited = RLIM_INFINITY
        #endif
        guard status == 0, limit.rlim_cur != unlimited else { return LockLimit(kib: nil, applies: false) }
        return LockLimit(kib: Int(limit.rlim_cur / 1024), applies: !hasLockCapability())
    }

    /// Whether `CAP_IPC_LOCK` (capability 14) is in this process's effective set
    /// (`CapEff` of `/proc/self/status`, in hex).
    private static func hasLockCapability() -> Bool {
        #if os(Linux)
        let status = ProcFile.read("/proc/self/status") ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") {
            let hex = line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces)
            return UInt64(hex, radix: 16).map { $0 & (1 << 14) != 0 } ?? false
        }
        return false
        #else
        return false
        #endif
    }
}
