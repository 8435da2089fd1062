#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One mapping made for secrets: a read-write, locked body with a `PROT_NONE` guard page
/// directly before and after it, excluded from core dumps where the system allows.
///
/// Every system call's result is checked; when one fails, whatever was mapped is unmapped and
/// the typed failure is thrown, so a region either has all its protections or does not exist.
struct GuardedRegion: Hashable, Sendable {
    /// First byte of the mapping (the leading guard page).
    let mappingStart: UInt
    /// Length of the mapping, guard pages included.
    let mappingLength: Int
    /// First byte of the read-write, locked body.
    let bodyStart: UInt
    /// Length of the body.
    let bodyLength: Int

    /// The system's page size; guard pages are one page each.
    static let pageSize: Int = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps a guarded body of `bodyLength` bytes (a multiple of the page size) whose start is a
    /// multiple of `alignment` (a power of two, at least the page size).
    static func map(
        bodyLength: Int, alignment: Int, counters: inout SecureMemoryStatistics
    ) throws(SecureMemoryFailure) -> GuardedRegion {
        let page = pageSize
        precondition(bodyLength > 0 && bodyLength % page == 0, "guarded body must be whole pages")
        precondition(alignment >= page && alignment & (alignment - 1) == 0, "alignment must be a power of two")
        // Reserve enough to cut an aligned body with a page on either side out of it; the
        // whole reservation starts inaccessible, so the guard pages need no call of their own.
        let reservedLength = bodyLength + 2 * page + (alignment - page)
        counters.mmapCalls += 1
        let reserved = mmap(nil, reservedLength, PROT_NONE, MAP_PRIVATE | anonymousFlag, -1, 0)
        guard let reserved, reserved != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw errno == ENOMEM ? .mappingLimitReached : .mappingFailed(errno: errno)
        }
        let reservedStart = UInt(bitPattern: reserved)
        let bodyStart = (reservedStart + UInt(page) + UInt(alignment - 1)) & ~UInt(alignment - 1)
        let region = GuardedRegion(
            mappingStart: bodyStart - UInt(page), mappingLength: bodyLength + 2 * page,
            bodyStart: bodyStart, bodyLength: bodyLength)

        // Trim the reservation to the region.
        let headLength = Int(region.mappingStart - reservedStart)
        let tailLength = reservedLength - headLength - region.mappingLength
        for (start, length) in [(reservedStart, headLength), (region.mappingEnd, tailLength)] where length > 0 {
            counters.munmapCalls += 1
            if munmap(UnsafeMutableRawPointer(bitPattern: start), length) != 0 {
                let code = errno
                counters.munmapCalls += 1
                _ = munmap(reserved, reservedLength)  // unmaps whatever of the reservation is left
                throw code == ENOMEM ? .mappingLimitReached : .mappingFailed(errno: code)
            }
        }

        do throws(SecureMemoryFailure) {
            try region.excludeFromCoreDumps(counters: &counters)
            counters.mprotectCalls += 1
            if mprotect(region.bodyPointer, bodyLength, PROT_READ | PROT_WRITE) != 0 {
                throw errno == ENOMEM ? .mappingLimitReached : .protectionFailed(errno: errno)
            }
            counters.mlockCalls += 1
            if mlock(region.bodyPointer, bodyLength) != 0 {
                switch errno {
                case ENOMEM, EPERM, EAGAIN: throw .lockLimitReached
                case let code: throw .lockFailed(errno: code)
                }
            }
        } catch {
            // Should even this fail (map-count limit), the region is never handed out.
            _ = region.unmap(counters: &counters)
            throw error
        }
        return region
    }

    /// One past the last byte of the mapping (the end of the trailing guard page).
    var mappingEnd: UInt { mappingStart + UInt(mappingLength) }

    /// The body as a pointer.
    var bodyPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: bodyStart)! }

    /// Unmaps the whole region (which also unlocks it), returning whether the system did.
    ///
    /// Cutting a region out of a mapping that merged with a neighbour's guard page can need a
    /// split, which fails with `ENOMEM` at the map-count limit; the caller then keeps the
    /// region, still guarded and locked, instead of trapping.
    func unmap(counters: inout SecureMemoryStatistics) -> Bool {
        counters.munmapCalls += 1
        return munmap(UnsafeMutableRawPointer(bitPattern: mappingStart), mappingLength) == 0
    }

    /// Marks the whole region (guards too, so that the flag never splits a mapping) as excluded
    /// from core dumps. Darwin has no per-range exclusion: there, core dumps are off unless
    /// enabled system-wide (`kern.coredump`, `ulimit -c`) and iOS writes none.
    private func excludeFromCoreDumps(counters: inout SecureMemoryStatistics) throws(SecureMemoryFailure) {
        #if os(Linux)
        counters.madviseCalls += 1
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
