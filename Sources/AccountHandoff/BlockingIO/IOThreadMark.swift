#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a ``BlockingIOPool`` thread knows about itself, in a thread-local slot: that it is a
/// pool thread (where blocking is allowed), and the cancellation of the work it runs now.
enum IOThreadMark {
    /// The thread-local slot; its value is an unretained ``IOThreadState`` that lives as long
    /// as its pool thread.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// Marks the calling thread as a pool thread, for its whole life; returns its state.
    static func markCurrentThread() -> IOThreadState {
        let state = IOThreadState()
        let status = pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        precondition(status == 0, "pthread_setspecific failed (\(status))")
        return state
    }

    /// Whether the calling thread is a pool thread.
    static var isPoolThread: Bool { pthread_getspecific(key) != nil }

    /// The state of the calling pool thread; `nil` on any other thread.
    static var currentState: IOThreadState? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<IOThreadState>.fromOpaque(raw).takeUnretainedValue()
    }

    /// The cancellation of the work the calling pool thread runs now.
    static var currentCancellation: BlockingIOCancellation? { currentState?.cancellation }
}

/// One pool thread's own state; only that thread touches it. It is never freed: a pool
/// thread keeps it until the process ends, or leaks one small object when its pool stops.
final class IOThreadState {
    var cancellation: BlockingIOCancellation?
}
