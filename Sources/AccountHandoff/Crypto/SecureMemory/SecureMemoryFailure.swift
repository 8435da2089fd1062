/// Why guarded, locked memory for a session's arena or a secret could not be provided.
///
/// Secrets are never placed in memory that lacks guard pages or a memory lock: when the
/// operating system refuses either, the allocation fails with one of these cases instead of
/// silently handing out weaker memory (Spec 8.5). No case carries secret material.
public enum SecureMemoryFailure: Error, Hashable, Sendable {
    /// `mlock` failed with `ENOMEM`, `EPERM` or `EAGAIN`: the process reached its limit of
    /// locked memory (`RLIMIT_MEMLOCK`, `ulimit -l`).
    case lockLimitReached
    /// `mmap`, `mprotect` or `madvise` failed with `ENOMEM`: the process reached its limit of
    /// memory mappings (`vm.max_map_count` on Linux) or the system is out of memory.
    case mappingLimitReached
    /// `mmap` failed for another reason than `ENOMEM`; the value is its `errno`.
    case mappingFailed(errno: Int32)
    /// `mprotect` (guard pages) failed for another reason than `ENOMEM`; the value is its `errno`.
    case protectionFailed(errno: Int32)
    /// `mlock` failed for another reason than reaching the lock limit; the value is its `errno`.
    case lockFailed(errno: Int32)
    /// `madvise(MADV_DONTDUMP)` (exclusion from core dumps) failed; the value is its `errno`.
    case dumpExclusionFailed(errno: Int32)
}

extension SecureMemoryFailure: CustomStringConvertible {
    /// A sentence that says what went wrong and what to do next; it never contains secret data.
    public var description: String {
        switch self {
        case .lockLimitReached:
            "The system's limit on locked memory is reached, so no further secret can be kept out of swap. "
                + "Finish or cancel pending handoffs, or raise the limit (ulimit -l, or LimitMEMLOCK= for a "
                + "systemd service), then try again."
        case .mappingLimitReached:
            "The system refused more memory mappings for guarded secrets (the map count limit or free memory "
                + "is exhausted). Finish or cancel pending handoffs, or raise vm.max_map_count, then try again."
        case .mappingFailed(let code):
            "The system refused to map memory for a guarded secret (mmap): \(SystemErrorWords.cause(code)). "
                + "Try again; if it persists, report it to the app's developers."
        case .protectionFailed(let code):
            "The system refused to set up guard pages for a secret (mprotect): \(SystemErrorWords.cause(code)). "
                + "Try again; if it persists, report it to the app's developers."
        case .lockFailed(let code):
            "The system refused to lock a secret's memory (mlock): \(SystemErrorWords.cause(code)). "
                + "Try again; if it persists, report it to the app's developers."
        case .dumpExclusionFailed(let code):
            "The system refused to exclude a secret's memory from core dumps (madvise): \(SystemErrorWords.cause(code)). "
                + "Try again; if it persists, report it to the app's developers."
        }
    }
}
