internal import CSodium
import Foundation

/// A fixed-size secret (private key, derived key, credential) kept in libsodium guarded memory.
///
/// The bytes live in a `sodium_malloc` allocation (guard pages, locked where the OS allows),
/// are wiped by ``wipe()`` and again when the object is released, and never appear in
/// `description`, `debugDescription` or reflection.
///
/// - Warning: Copying the bytes out of ``withUnsafeBytes(_:)`` into ordinary Swift values
///   (`String`, `Data`, `[UInt8]`) defeats the wiping; hand the buffer straight to its
///   destination (for example the Keychain).
public final class SecretBytes: @unchecked Sendable {
    // Safety of @unchecked Sendable: every access to `pointer` happens under `lock`.
    // The lock is recursive so that code inside an access closure may read this secret's
    // own properties (`isAllZero`, `constantTimeEquals(self)`) without deadlocking.
    private let pointer: UnsafeMutableRawPointer
    private let lock = NSRecursiveLock()
    private var wiped = false

    /// The number of secret bytes.
    public let count: Int

    /// Allocates `count` zero bytes of guarded memory.
    init(zeroedCount count: Int) {
        Sodium.ensureInitialised()
        precondition(count >= 0, "negative secret size")
        let raw: UnsafeMutableRawPointer
        do {
            raw = try GuardedAllocator.allocate(max(count, 1))  // zeroed
        } catch {
            fatalError("guarded memory unavailable: \(error)")
        }
        self.pointer = raw
        self.count = count
    }

    /// Copies `bytes` into guarded memory.
    ///
    /// - Warning: the caller still owns the source collection and should wipe it if it can.
    public convenience init<Bytes: Collection>(copying bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(zeroedCount: bytes.count)
        let destination = pointer.assumingMemoryBound(to: UInt8.self)
        for (offset, byte) in bytes.enumerated() { destination[offset] = byte }
    }

    /// Copies the UTF-8 form of `string` into guarded memory.
    ///
    /// - Warning: Swift strings cannot be wiped; prefer ``init(copying:)`` from a buffer you clear.
    public convenience init(utf8 string: String) {
        self.init(copying: Array(string.utf8))
    }

    deinit {
        GuardedAllocator.release(pointer, count: max(count, 1))  // wipes before releasing
    }

    /// Calls `body` with read access to the secret bytes. Do not let the pointer escape.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Calls `body` with write access; used by the crypto layer to fill a new secret.
    func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// Overwrites the secret with zeros. Idempotent; later reads see only zeros.
    public func wipe() {
        lock.lock()
        defer { lock.unlock() }
        sodium_memzero(pointer, max(count, 1))
        wiped = true
    }

    /// Whether ``wipe()`` has run.
    public var isWiped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return wiped
    }

    /// Whether every byte is zero (checked by libsodium in constant time). Used by tests
    /// that prove terminal states leave nothing behind.
    public var isAllZero: Bool {
        withUnsafeBytes { buffer in
            buffer.isEmpty || sodium_is_zero(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count) == 1
        }
    }

    /// Constant-time equality of two secrets of the same length; different lengths are unequal.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        // Take the two locks in one global order (by object identity), so `a.constantTimeEquals(b)`
        // and `b.constantTimeEquals(a)` running at the same time cannot deadlock each other.
        let (outer, inner) = ObjectIdentifier(self) < ObjectIdentifier(other) ? (self, other) : (other, self)
        return outer.withUnsafeBytes { first in inner.withUnsafeBytes { second in ConstantTime.equal(first, second) } }
    }

    /// Copies the bytes into a plain array. Only for test vectors and verification tools.
    @_spi(Vectors) public func revealedBytes() -> [UInt8] {
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
