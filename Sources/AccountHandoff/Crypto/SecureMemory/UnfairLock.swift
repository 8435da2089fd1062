#if canImport(Darwin)
import Darwin
#else
import Synchronization
#endif

/// A small non-recursive mutual-exclusion lock for short critical sections, stored inline in
/// the object it protects: a futex-based `Mutex` on Linux (an uncontended lock and unlock are one
/// atomic operation each, and creating one allocates nothing), `os_unfair_lock` on Apple
/// platforms, on the heap so that its address never moves, as it requires (`Mutex` needs macOS
/// 15 / iOS 18 there).
///
/// Noncopyable, so a copy can never be a second, unrelated lock.
struct UnfairLock: ~Copyable, @unchecked Sendable {
    // Safety of @unchecked Sendable: the primitive is designed to be shared between threads.
    #if canImport(Darwin)
    private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let primitive = Mutex<Void>(())
    #endif

    init() {
        #if canImport(Darwin)
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: os_unfair_lock())
        #endif
    }

    #if canImport(Darwin)
    deinit {
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }
    #endif

    /// Runs `body` while holding the lock. `body` must not take this lock again.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        defer { os_unfair_lock_unlock(primitive) }
        return try body()
        #else
        return try primitive.withLock { (_: inout Void) throws(Failure) -> Result in try body() }
        #endif
    }
}
