internal import CSodium

/// A secret (a password, a key) kept in guarded memory, with a life its owner decides.
///
/// The bytes live in whole pages of guarded memory (``GuardedPages``: a guard page before and
/// after, locked, excluded from core dumps, Spec 8.5): a secret an app makes has pages of its
/// own, its bytes placed at their end so that a write past the end faults on the guard page;
/// the password a receiving session delivers stays in that session's arena. The bytes are
/// wiped by ``wipe()`` and when the object goes, and never appear in `description`,
/// `debugDescription` or reflection. Reading a secret after it was wiped is a programming
/// error and traps: a wiped secret never reads as zeros.
///
/// - Warning: Copying the bytes out of ``withUnsafeBytes(_:)`` into ordinary Swift values
///   (`String`, `Data`, `[UInt8]`) defeats the wiping; hand the buffer straight to its
///   destination (for example the Keychain), then call ``wipe()``.
public final class SecretBytes: @unchecked Sendable {
    // Safety of @unchecked Sendable: the bytes and `wiped` are only touched under `lock`.
    // The lock is not recursive: code inside an access closure must not access the same
    // secret again.
    private let pages: GuardedPages
    private let pointer: UnsafeMutableRawPointer
    private let lock = UnfairLock()
    private var wiped = false

    /// The number of secret bytes.
    public let count: Int

    /// Allocates `count` zero bytes in guarded pages of their own.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)`` when no guarded, locked memory
    ///   can be had; nothing is allocated then.
    package init(zeroedCount count: Int) throws(HandoffError) {
        Sodium.ensureInitialised()
        precondition(count >= 0, "negative secret size")
        do { pages = try GuardedPages(byteCount: count) } catch { throw .secureMemoryUnavailable(error) }
        // At the end of the pages: the byte after the secret is the trailing guard page.
        pointer = pages.base + (pages.byteCount - count)
        self.count = count
    }

    /// A secret that lies in `pages` already (handed over by a ``SessionArena``).
    init(pages: GuardedPages, offset: Int, count: Int) {
        precondition(offset >= 0 && offset + count <= pages.byteCount, "a secret outside its pages")
        self.pages = pages
        pointer = pages.base + offset
        self.count = count
    }

    /// Copies the bytes of `buffer` into guarded memory.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    /// - Warning: The caller still owns the source and should wipe it if it can.
    public convenience init(copying buffer: UnsafeRawBufferPointer) throws(HandoffError) {
        try self.init(zeroedCount: buffer.count)
        if let source = buffer.baseAddress, buffer.count > 0 {
            pointer.copyMemory(from: source, byteCount: buffer.count)
        }
    }

    /// Copies `bytes` into guarded memory.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    /// - Warning: The caller still owns the source array and should wipe it if it can.
    public convenience init(copying bytes: [UInt8]) throws(HandoffError) {
        try self.init(zeroedCount: bytes.count)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, source.count > 0 { pointer.copyMemory(from: base, byteCount: source.count) }
        }
    }

    /// Copies the bytes of any collection into guarded memory; contiguous collections are
    /// copied in one step.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    public convenience init<Bytes: Collection>(copying bytes: Bytes) throws(HandoffError) where Bytes.Element == UInt8 {
        try self.init(zeroedCount: bytes.count)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress, source.count > 0 { pointer.copyMemory(from: base, byteCount: source.count) }
        }
        guard copied == nil else { return }
        let destination = pointer.assumingMemoryBound(to: UInt8.self)
        for (offset, byte) in bytes.enumerated() { destination[offset] = byte }
    }

    /// Copies the UTF-8 form of `string` into guarded memory.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    /// - Warning: Swift strings cannot be wiped; prefer ``init(copying:)-(UnsafeRawBufferPointer)``
    ///   from a buffer you clear.
    public convenience init(utf8 string: String) throws(HandoffError) {
        try self.init(copying: string.utf8)
    }

    deinit {
        if !wiped { sodium_memzero(pointer, count) }  // the pages are wiped as a whole when they go too
    }

    /// Calls `body` with read access to the secret bytes. Do not let the pointer escape.
    ///
    /// - Precondition: the secret has not been wiped; reading a wiped secret traps.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in
            precondition(!wiped, "A wiped secret was read; secrets are single-use and must be read before they are wiped.")
            return try body(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }

    /// Calls `body` with write access; used by the crypto layer to fill a new secret.
    ///
    /// - Precondition: the secret has not been wiped.
    package func withUnsafeMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in
            precondition(!wiped, "A wiped secret was written; secrets are single-use.")
            return try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
        }
    }

    /// Overwrites the secret with zeros. Idempotent; any later read traps.
    public func wipe() {
        lock.withLock {
            sodium_memzero(pointer, count)
            wiped = true
        }
    }

    /// Whether ``wipe()`` has run.
    public var isWiped: Bool {
        lock.withLock { wiped }
    }

    /// A new guarded secret holding this one's bytes, copied from buffer to buffer.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    /// - Precondition: the secret has not been wiped.
    package func copy() throws(HandoffError) -> SecretBytes {
        try withUnsafeBytes { (bytes) throws(HandoffError) in try SecretBytes(copying: bytes) }
    }

    /// Whether every byte is zero (checked by libsodium in constant time), without trapping on
    /// a wiped secret. For tests that prove terminal states leave nothing behind.
    package var isAllZero: Bool {
        lock.withLock {
            count == 0 || sodium_is_zero(pointer.assumingMemoryBound(to: UInt8.self), count) == 1
        }
    }

    /// Constant-time equality of two secrets of the same length; different lengths are unequal.
    ///
    /// - Precondition: neither secret has been wiped.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        if other === self { return withUnsafeBytes { _ in true } }
        // Take the two locks in one global order (by object identity), so `a.constantTimeEquals(b)`
        // and `b.constantTimeEquals(a)` running at the same time cannot deadlock each other.
        let (outer, inner) = ObjectIdentifier(self) < ObjectIdentifier(other) ? (self, other) : (other, self)
        return outer.withUnsafeBytes { first in inner.withUnsafeBytes { second in ConstantTime.equal(first, second) } }
    }

    /// Constant-time equality with public bytes of the same length.
    ///
    /// - Precondition: the secret has not been wiped.
    public func constantTimeEquals(_ bytes: [UInt8]) -> Bool {
        withUnsafeBytes { mine in bytes.withUnsafeBytes { theirs in ConstantTime.equal(mine, theirs) } }
    }

    /// The guarded pages the bytes lie in, for tests that check their protections.
    package var guardedPages: GuardedPages { pages }

    /// Copies the bytes into a plain array. Only for test vectors and verification tools.
    package func revealedBytes() -> [UInt8] {
        withUnsafeBytes { Array($0) }
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Always `SecretBytes(redacted)`: neither content nor length is shown.
    public var description: String { "SecretBytes(redacted)" }
    /// Same as ``description``.
    public var debugDescription: String { description }
    /// An empty mirror, so `dump` and debuggers show nothing secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
