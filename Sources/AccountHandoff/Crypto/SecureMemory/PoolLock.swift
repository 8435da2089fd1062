#if canImport(Darwin)
import os
#else
import Synchronization
#endif

/// The one lock of a ``SecureMemoryPool``: an uncontended acquire is a single atomic
/// operation (a futex-based `Mutex` on Linux, `os_unfair_lock` on Apple platforms, where
/// `Mutex` needs macOS 15 / iOS 18).
final class PoolLock<State: Sendable>: Sendable {
    #if canImport(Darwin)
    private let lock: OSAllocatedUnfairLock<State>
    #else
    private let lock: Mutex<State>
    #endif

    /// Creates the lock around its initial state.
    init(_ initialState: State) {
        #if canImport(Darwin)
        lock = OSAllocatedUnfairLock(uncheckedState: initialState)
        #else
        lock = Mutex(initialState)
        #endif
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        #if canImport(Darwin)
        try lock.withLockUnchecked { state in
            Swift.Result { () throws(Failure) -> Result in try body(&state) }
        }.get()
        #else
        try lock.withLock { (state: inout State) throws(Failure) -> Result in try body(&state) }
        #endif
    }
}
