/// Why guarded, locked memory for a secret could not be obtained. The allocation is refused
/// (fails closed): a secret is never placed in memory that is unguarded or unlocked.
public enum SecureMemoryFailure: Error, Hashable, Sendable {
    /// Locking the memory failed: the process reached its memory-lock limit (`RLIMIT_MEMLOCK`).
    case lockLimitReached
    /// Mapping or protecting memory failed because the process has too many memory mappings.
    case mappingLimitReached
    /// A guard-page protection call failed with this `errno`.
    case protectionFailed(errno: Int32)
    /// The allocator's configured cap on locked memory is reached.
    case capReached
}

extension SecureMemoryFailure: CustomStringConvertible {
    /// A whole sentence that says what happened and what to do.
    public var description: String {
        switch self {
        case .lockLimitReached:
            "This process may not lock more memory for secrets; raise the memory-lock limit (ulimit -l) or end other transfers, then try again."
        case .mappingLimitReached:
            "This process has too many memory mappings to guard another secret; end other transfers, then try again."
        case .protectionFailed(let code):
            "Guard pages for a secret could not be set up (error \(code)); try again, and report it if it persists."
        case .capReached:
            "The memory reserved for secrets is full; end other transfers, then try again."
        }
    }
}
