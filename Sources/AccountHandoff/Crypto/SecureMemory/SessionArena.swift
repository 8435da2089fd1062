internal import CSodium

/// The guarded memory of one session (Spec 8.5): whole pages of ``GuardedPages`` (guard pages,
/// locked, excluded from core dumps) taken when the session starts, sized for everything it
/// will hold, and wiped and given back once, when it ends.
///
/// The arena lies at the end of its pages, so its last byte is followed by the trailing guard
/// page. Two bump allocators share it. Secrets the session keeps (``keep(_:)``) are taken
/// from the start upwards and never given back before the end. Temporaries
/// (``withScratch(byteCount:_:)``: a shared secret, a PRK, an opened plaintext) are taken from
/// the end downwards and wiped and given back when their scope returns, so a session that
/// handles many frames needs no more than its busiest step. The two never meet: running past
/// the free space is a programming error and traps, as the sizes are the protocol's.
///
/// An arena belongs to its session and is used from its session's context only (it is not
/// `Sendable`). The one thing that leaves it is the receiver's delivered password
/// (``handOver(_:)``): the app owns it from then on, so the end of the session wipes everything
/// else, and the pages go when that password goes too.
package final class SessionArena {
    /// Bytes of guarded memory the arena can hand out: what its session declared it needs.
    package let capacity: Int
    // The arena is confined to its session (not Sendable) and no access to these properties
    // overlaps another, so their dynamic exclusivity checks (a third of the session's Swift
    // runtime calls) are left out.
    @exclusivity(unchecked) private var pages: GuardedPages?
    /// Where the arena starts in its pages: `capacity` bytes before their end.
    private let start: Int
    /// End of the kept secrets (they lie in `0..<keptEnd`).
    @exclusivity(unchecked) private var keptEnd = 0
    /// Start of the temporaries (they lie in `scratchStart..<capacity`).
    @exclusivity(unchecked) private var scratchStart: Int
    /// Kept secrets so far, and which of them were wiped (bit `index`).
    @exclusivity(unchecked) private var keptCount = 0
    @exclusivity(unchecked) private var wipedSecrets: UInt64 = 0
    /// The bytes handed to the app, which the end of the session leaves to it.
    @exclusivity(unchecked) private var handedOver: Range<Int>?
    /// The most bytes in use at once so far, kept and temporaries together.
    @exclusivity(unchecked) package private(set) var highWaterMark = 0

    /// The most kept secrets one arena numbers (one bit each in `wipedSecrets`).
    private static let maximumKeptSecrets = UInt64.bitWidth
    /// Every secret starts at a multiple of this.
    private static let alignment = 16

    /// Takes `byteCount` bytes of guarded memory for one session (in whole pages), all zero.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)`` when the system refuses to map,
    ///   guard or lock them (the memory-lock limit, the map count); nothing is held then.
    package init(byteCount: Int) throws(HandoffError) {
        Sodium.ensureInitialised()
        precondition(byteCount >= 0, "negative arena size")
        let pages: GuardedPages
        do { pages = try GuardedPages(byteCount: byteCount) } catch { throw .secureMemoryUnavailable(error) }
        self.pages = pages
        capacity = Self.rounded(byteCount)
        start = pages.byteCount - capacity
        scratchStart = capacity
    }

    deinit { end() }

    /// Whether the session ended (``end()``): nothing can be read or taken any more.
    package var hasEnded: Bool { pages == nil }

    private static func rounded(_ count: Int) -> Int {
        (count + alignment - 1) / alignment * alignment
    }

    private func livePages() -> GuardedPages {
        guard let pages else { preconditionFailure("A session's secret was used after the session ended and wiped it.") }
        return pages
    }

    // MARK: Kept secrets

    /// `count` zero bytes the session keeps until it ends (or wipes them).
    ///
    /// - Precondition: they fit in the free space (the arena is sized for its session).
    package func keep(_ count: Int) -> SessionSecret {
        _ = livePages()
        precondition(count >= 0, "negative secret size")
        precondition(keptCount < Self.maximumKeptSecrets, "a session arena numbers at most 64 kept secrets")
        let offset = keptEnd
        precondition(offset + Self.rounded(count) <= scratchStart, "a session arena ran out: it is sized for its session")
        keptEnd = offset + Self.rounded(count)
        keptCount += 1
        highWaterMark = max(highWaterMark, bytesInUse)
        return SessionSecret(arena: self, index: keptCount - 1, offset: offset, count: count)
    }

    /// A kept copy of `bytes`.
    package func keep(copying bytes: UnsafeRawBufferPointer) -> SessionSecret {
        let secret = keep(bytes.count)
        if let source = bytes.baseAddress, bytes.count > 0 {
            (livePages().base + start + secret.offset).copyMemory(from: source, byteCount: bytes.count)
        }
        return secret
    }

    func read<Result, Failure: Error>(_ secret: SessionSecret,
                                      _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(bytes(of: secret)))
    }

    func write<Result, Failure: Error>(_ secret: SessionSecret,
                                       _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(bytes(of: secret))
    }

    private func bytes(of secret: SessionSecret) -> UnsafeMutableRawBufferPointer {
        precondition(secret.arena === self, "a secret of another session")
        let base = livePages().base
        precondition(wipedSecrets & (1 << UInt64(secret.index)) == 0,
                     "A wiped secret was used; a session's secrets are single-use and are read before they are wiped.")
        return UnsafeMutableRawBufferPointer(start: base + start + secret.offset, count: secret.count)
    }

    /// Zeroes `secret`; any later read traps. Idempotent, and a no-op once the session ended
    /// (everything is zero then).
    func wipe(_ secret: SessionSecret) {
        guard let pages else { return }
        sodium_memzero(pages.base + start + secret.offset, secret.count)
        wipedSecrets |= 1 << UInt64(secret.index)
    }

    func isWiped(_ secret: SessionSecret) -> Bool {
        pages == nil || wipedSecrets & (1 << UInt64(secret.index)) != 0
    }

    /// Hands `secret` to the app as a ``SecretBytes`` that stays in these pages: the session
    /// no longer reads it and its end does not wipe it; the app's ``SecretBytes/wipe()`` does
    /// (Spec 6.5, the delivered password). At most one secret per arena.
    func handOver(_ secret: SessionSecret) -> SecretBytes {
        let pages = livePages()
        precondition(handedOver == nil, "a session hands one secret to the app")
        precondition(wipedSecrets & (1 << UInt64(secret.index)) == 0, "a wiped secret cannot be handed over")
        handedOver = start + secret.offset..<start + secret.offset + secret.count
        wipedSecrets |= 1 << UInt64(secret.index)
        return SecretBytes(pages: pages, offset: start + secret.offset, count: secret.count)
    }

    // MARK: Temporaries

    /// Calls `body` with `count` zero bytes of guarded memory that live only for the call,
    /// then wipes them and gives them back, whether `body` returns or throws.
    ///
    /// - Precondition: they fit in the free space (the arena is sized for its session).
    package func withScratch<Result, Failure: Error>(
        byteCount count: Int, _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let pages = livePages()
        precondition(count >= 0, "negative secret size")
        let previous = scratchStart
        let taken = previous - Self.rounded(count)
        precondition(taken >= keptEnd, "a session arena ran out: it is sized for its session")
        scratchStart = taken
        highWaterMark = max(highWaterMark, bytesInUse)
        let base = pages.base + start + taken
        defer {
            sodium_memzero(base, previous - taken)
            scratchStart = previous
        }
        return try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    // MARK: The end

    /// Wipes every byte the session held (all but the one it handed to the app) and lets the
    /// pages go, now or when the app's handed-over secret goes (``GuardedPages`` wipes them
    /// whole, then keeps them for reuse or unmaps them). Idempotent.
    ///
    /// - Precondition: no temporary is in use.
    package func end() {
        guard let pages else { return }
        precondition(scratchStart == capacity, "a session ended while a temporary was in use")
        // The temporaries were wiped as their scopes returned and nothing else of the pages was
        // written, so the kept secrets are what is left (the pages' owner wipes them all again
        // before they are reused or unmapped).
        let kept = start..<start + keptEnd
        if let handed = handedOver {
            sodium_memzero(pages.base + kept.lowerBound, handed.lowerBound - kept.lowerBound)
            sodium_memzero(pages.base + handed.upperBound, kept.upperBound - handed.upperBound)
        } else {
            sodium_memzero(pages.base + kept.lowerBound, kept.count)
        }
        self.pages = nil
    }

    /// Test hook: the pages, which the caller keeps mapped by holding them, so a test can check
    /// that the end left nothing but the handed-over secret (``handedOverRange``).
    package var guardedPages: GuardedPages? { pages }

    /// Test hook: where the secret handed to the app lies in the pages, if one was.
    package var handedOverRange: Range<Int>? { handedOver }

    /// Bytes in use now, kept secrets and temporaries.
    package var bytesInUse: Int { keptEnd + (capacity - scratchStart) }

    /// Test hook: where the arena lies in its pages (it ends where they end).
    package var range: Range<Int> { start..<start + capacity }
}

/// A secret a session keeps in its ``SessionArena``: where it lies there. Reading it after it
/// was wiped, or after the session ended, traps; it never reads as zeros.
package struct SessionSecret {
    fileprivate let arena: SessionArena
    fileprivate let index: Int
    fileprivate let offset: Int
    /// The number of secret bytes.
    package let count: Int

    fileprivate init(arena: SessionArena, index: Int, offset: Int, count: Int) {
        self.arena = arena
        self.index = index
        self.offset = offset
        self.count = count
    }

    /// Calls `body` with read access to the secret bytes. Do not let the pointer escape.
    package func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try arena.read(self, body)
    }

    /// Calls `body` with write access, to fill the secret.
    func withUnsafeMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try arena.write(self, body)
    }

    /// Zeroes the secret; any later read traps.
    package func wipe() { arena.wipe(self) }

    /// Whether the secret was wiped (or its session ended).
    package var isWiped: Bool { arena.isWiped(self) }

    /// A copy of the bytes in a plain array. Only for vectors and tests.
    package func revealedBytes() -> [UInt8] { withUnsafeBytes { Array($0) } }
}
