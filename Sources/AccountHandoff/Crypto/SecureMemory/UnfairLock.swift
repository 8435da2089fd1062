#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A small non-recursive mutual-exclusion lock for short critical sections: `os_unfair_lock`
/// on Apple platforms, a `pthread_mutex_t` elsewhere. It lives on the heap so its address
/// never moves, as both primitives require.
final class UnfairLock: @unchecked Sendable {
    // Safety of @unchecked Sendable: the primitive is designed to be shared between threads.
    #if canImport(Darwin)
    private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Runs `body` while holding the lock. `body` must not take this lock again.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        defer { os_unfair_lock_unlock(primitive) }
        #else
        pthread_mutex_lock(primitive)
        defer { pthread_mutex_unlock(primitive) }
        #endif
        return try body()
    }
}
