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

extension SecureMemoryFailure: TranslatedSentence {
    /// A sentence that says what went wrong and what to do next; it never contains secret data.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .lockLimitReached:
            sentenceCatalog.sentence("secureMemory.lockLimitReached", in: language)
        case .mappingLimitReached:
            sentenceCatalog.sentence("secureMemory.mappingLimitReached", in: language)
        case .mappingFailed(let code):
            sentenceCatalog.sentence("secureMemory.mappingFailed", .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .protectionFailed(let code):
            sentenceCatalog.sentence("secureMemory.protectionFailed", .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .lockFailed(let code):
            sentenceCatalog.sentence("secureMemory.lockFailed", .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .dumpExclusionFailed(let code):
            sentenceCatalog.sentence("secureMemory.dumpExclusionFailed", .text(SystemErrorWords.cause(code, in: language)), in: language)
        }
    }
}
