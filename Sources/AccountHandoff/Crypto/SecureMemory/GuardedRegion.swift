#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One mapping made for secrets (Spec 8.5): a read-write, locked body of whole pages with a
/// `PROT_NONE` guard page directly before and after it, excluded from core dumps where the
/// system allows.
///
/// Every system call's result is checked; when one fails, whatever was mapped is unmapped and
/// the typed failure is thrown, so a region either has all its protections or does not exist.
struct GuardedRegion: Sendable {
    /// First byte of the mapping (the leading guard page).
    let mappingStart: UInt
    /// Length of the mapping, guard pages included.
    let mappingLength: Int
    /// First byte of the read-write, locked body.
    let bodyStart: UInt
    /// Length of the body: whole pages.
    let bodyLength: Int

    /// The system's page size; guard pages are one page each.
    static let pageSize: Int = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The body length that holds `byteCount` bytes: whole pages, at least one.
    static func bodyLength(holding byteCount: Int) -> Int {
        max(1, (byteCount + pageSize - 1) / pageSize) * pageSize
    }

    /// Maps a guarded body of `bodyLength` bytes (a multiple of the page size), all zero.
    ///
    /// - Throws: ``SecureMemoryFailure`` when the system refuses to map, guard, lock or exclude
    ///   the memory from core dumps; nothing stays mapped then.
    static func map(bodyLength: Int) throws(SecureMemoryFailure) -> GuardedRegion {
        let page = pageSize
        precondition(bodyLength > 0 && bodyLength % page == 0, "guarded body must be whole pages")
        // The whole mapping starts inaccessible, so the guard pages need no call of their own.
        let mappingLength = bodyLength + 2 * page
        let mapped = mmap(nil, mappingLength, PROT_NONE, MAP_PRIVATE | anonymousFlag, -1, 0)
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw errno == ENOMEM ? .mappingLimitReached : .mappingFailed(errno: errno)
        }
        let start = UInt(bitPattern: mapped)
        let region = GuardedRegion(mappingStart: start, mappingLength: mappingLength,
                                   bodyStart: start + UInt(page), bodyLength: bodyLength)
        do throws(SecureMemoryFailure) {
            try region.excludeFromCoreDumps()
            if mprotect(region.bodyPointer, bodyLength, PROT_READ | PROT_WRITE) != 0 {
                throw errno == ENOMEM ? .mappingLimitReached : .protectionFailed(errno: errno)
            }
            if mlock(region.bodyPointer, bodyLength) != 0 {
                switch errno {
                case ENOMEM, EPERM, EAGAIN: throw .lockLimitReached
                case let code: throw .lockFailed(errno: code)
                }
            }
        } catch {
            _ = region.unmap()
            throw error
        }
        return region
    }

    /// The body as a pointer.
    var bodyPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: bodyStart)! }

    /// Unmaps the whole region (which also unlocks it), returning whether the system did.
    /// Should it refuse (the map-count limit can refuse a split), the region stays mapped,
    /// still guarded and locked, rather than the process trapping.
    func unmap() -> Bool {
        munmap(UnsafeMutableRawPointer(bitPattern: mappingStart), mappingLength) == 0
    }

    /// Marks the whole region (guards too, so that the flag never splits the mapping) as
    /// excluded from core dumps. Darwin has no per-range exclusion: there, core dumps are off
    /// unless enabled system-wide (`kern.coredump`, `ulimit -c`) and iOS writes none.
    private func excludeFromCoreDumps() throws(SecureMemoryFailure) {
        #if os(Linux)
        if madvise(UnsafeMutableRawPointer(bitPattern: mappingStart), mappingLength, MADV_DONTDUMP) != 0 {
            throw errno == ENOMEM ? .mappingLimitReached : .dumpExclusionFailed(errno: errno)
        }
        #endif
    }
}

#if canImport(Glibc)
private let anonymousFlag = MAP_ANONYMOUS
#else
private let anonymousFlag = MAP_ANON
#endif
