internal import CSodium

/// A secret (private key, derived key, nonce, credential) kept in guarded memory.
///
/// The bytes live in a slot of the guarded memory pool (``GuardedAllocator``: slabs with guard
/// pages, locked, excluded from core dumps, a canary between slots), drawn from the session's
/// reservation when a session step makes them (``SecureMemoryReservation``), are wiped by
/// ``wipe()`` and again when the object is released, and never appear in
/// `description`, `debugDescription` or reflection. Reading a secret after it was wiped is a
/// programming error and traps: a wiped secret never reads as zeros.
///
/// - Warning: Copying the bytes out of ``withUnsafeBytes(_:)`` into ordinary Swift values
///   (`String`, `Data`, `[UInt8]`) defeats the wiping; hand the buffer straight to its
///   destination (for example the Keychain), then call ``wipe()``.
public final class SecretBytes: @unchecked Sendable {
    // Safety of @unchecked Sendable: the buffer and `wiped` are only touched under `lock`.
    // The lock is not recursive: code inside an access closure must not access the same
    // secret again.
    private let allocation: GuardedAllocation
    private var pointer: UnsafeMutableRawPointer { allocation.pointer }
    private let lock = UnfairLock()
    private var wiped = false

    /// The number of secret bytes.
    public let count: Int

    /// Allocates `count` zero bytes of guarded memory.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)`` when no guarded, locked memory
    ///   can be had; nothing is allocated then.
    package init(zeroedCount count: Int) throws(HandoffError) {
        Sodium.ensureInitialised()
        precondition(count >= 0, "negative secret size")
        do { allocation = try GuardedAllocator.allocate(max(count, 1)) } catch { throw .secureMemoryUnavailable(error) }  // zeroed
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
        GuardedAllocator.release(allocation)  // wipes before releasing
    }

    /// Calls `body` with `count` zero bytes of guarded memory that live only for the call: a
    /// secret that one computation makes and uses up (a shared secret, a PRK, a tag, the code
    /// material). The bytes come from the pool as a ``SecretBytes``' would (drawn from the bound
    /// reservation) and are wiped and released when `body` returns or throws, with no object
    /// made for them.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``, or what `body` throws.
    static func withTemporary<Result>(
        byteCount count: Int, _ body: (UnsafeMutableRawBufferPointer) throws(HandoffError) -> Result
    ) throws(HandoffError) -> Result {
        Sodium.ensureInitialised()
        precondition(count >= 0, "negative secret size")
        let allocation: GuardedAllocation
        do { allocation = try GuardedAllocator.allocate(max(count, 1)) } catch { throw .secureMemoryUnavailable(error) }
        defer { GuardedAllocator.release(allocation) }  // wipes before releasing
        return try body(UnsafeMutableRawBufferPointer(start: allocation.pointer, count: count))
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
            sodium_memzero(pointer, max(count, 1))
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

    /// One secret made by `make` from each of `sources`, in order; when one cannot be made,
    /// those made so far are wiped before the error is thrown, so nothing is left behind.
    static func all<Source>(_ sources: [Source],
                            _ make: (Source) throws(HandoffError) -> SecretBytes) throws(HandoffError) -> [SecretBytes] {
        var made: [SecretBytes] = []
        made.reserveCapacity(sources.count)
        do {
            for source in sources { made.append(try make(source)) }
        } catch {
            made.forEach { $0.wipe() }
            throw error
        }
        return made
    }

    /// Test hook: calls `body` with read access unless the secret was wiped (then `nil`), in
    /// one locked access. Leak scanners read every live secret after each step of a fuzz input.
    package func withUnsafeBytesUnlessWiped<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        lock.withLock { wiped ? nil : body(UnsafeRawBufferPointer(start: pointer, count: count)) }
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
