internal import CSodium

/// Whole pages of guarded memory (``GuardedRegion``: guard pages, locked, excluded from core
/// dumps) owned by whoever holds a reference: one session's ``SessionArena``, a secret handed
/// from it to the app, or a ``SecretBytes`` of its own. The pages are wiped when the last
/// reference goes, then kept for the next owner (``WipedRegions``) or unmapped.
package final class GuardedPages: @unchecked Sendable {
    // Safety of @unchecked Sendable: every stored property is immutable; the bytes are written
    // only by their owners (an arena, confined to its session, or a SecretBytes under its lock).
    private let region: GuardedRegion

    /// At least `byteCount` zero bytes in whole pages: a wiped region kept from an earlier
    /// owner, or a new mapping.
    ///
    /// - Throws: ``SecureMemoryFailure`` when the system refuses to map, guard or lock them,
    ///   even after the kept regions were given back to it.
    init(byteCount: Int) throws(SecureMemoryFailure) {
        let bodyLength = GuardedRegion.bodyLength(holding: byteCount)
        if let kept = WipedRegions.shared.take(bodyLength: bodyLength) {
            region = kept
            return
        }
        do {
            region = try GuardedRegion.map(bodyLength: bodyLength)
        } catch .lockLimitReached where WipedRegions.shared.unmapAll() {
            region = try GuardedRegion.map(bodyLength: bodyLength)
        } catch .mappingLimitReached where WipedRegions.shared.unmapAll() {
            region = try GuardedRegion.map(bodyLength: bodyLength)
        }
    }

    deinit {
        sodium_memzero(region.bodyPointer, region.bodyLength)
        if !WipedRegions.shared.keep(region) { _ = region.unmap() }
    }

    /// The first byte of the locked, read-write body.
    var base: UnsafeMutableRawPointer { region.bodyPointer }

    /// Bytes in the body (whole pages).
    var byteCount: Int { region.bodyLength }

    /// The body's addresses, for tests that check the guard pages around it.
    package var body: Range<UInt> { region.bodyStart..<region.bodyStart + UInt(region.bodyLength) }

    /// Whether every byte of `range` of the body is zero (checked by libsodium in constant time),
    /// for tests that prove what a session leaves behind.
    package func isZero(_ range: Range<Int>) -> Bool {
        precondition(range.lowerBound >= 0 && range.upperBound <= byteCount, "outside the guarded pages")
        return range.isEmpty || sodium_is_zero((base + range.lowerBound).assumingMemoryBound(to: UInt8.self), range.count) == 1
    }

    /// Test hook: how many wiped one-page regions the process keeps mapped and locked now.
    package static var keptRegionCount: Int { WipedRegions.shared.count }
}

/// A few wiped one-page regions kept mapped, guarded and locked for the next session or secret
/// (Spec 8.5), so that a process that runs session after session does not map, protect, lock
/// and unmap pages for each: those calls were a tenth of a whole session's time. Every region
/// here is all zero (its owner wiped it before giving it back) and keeps its guard pages.
final class WipedRegions: @unchecked Sendable {
    // Safety of @unchecked Sendable: `regions` is only touched under `lock`.
    static let shared = WipedRegions()
    /// At most this many regions (one page each) stay locked beyond the live owners'.
    static let capacity = 8

    private let lock = UnfairLock()
    // Touched only under `lock`, which excludes overlapping accesses: no dynamic check needed.
    @exclusivity(unchecked) private var regions: [GuardedRegion] = []

    private init() { regions.reserveCapacity(Self.capacity) }

    /// A kept region with a body of `bodyLength` bytes, if there is one (one page only).
    func take(bodyLength: Int) -> GuardedRegion? {
        guard bodyLength == GuardedRegion.pageSize else { return nil }
        return lock.withLock { regions.popLast() }
    }

    /// Keeps `region`, already wiped, if it is one page and there is room; false otherwise.
    func keep(_ region: GuardedRegion) -> Bool {
        guard region.bodyLength == GuardedRegion.pageSize else { return false }
        return lock.withLock {
            guard regions.count < Self.capacity else { return false }
            regions.append(region)
            return true
        }
    }

    /// Gives every kept region back to the system (before a refused mapping is tried again);
    /// whether there was any.
    func unmapAll() -> Bool {
        let released = lock.withLock {
            let all = regions
            regions.removeAll(keepingCapacity: true)
            return all
        }
        for region in released { _ = region.unmap() }
        return !released.isEmpty
    }

    var count: Int { lock.withLock { regions.count } }
}
