#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reservation bound by the innermost synchronous ``SecureMemoryReservation/bind(_:)`` on
/// the calling thread, as a thread-specific value: setting and reading it allocates nothing.
enum ThreadBinding {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "secure memory: no thread-specific key left")
        return key
    }()

    /// The reservation bound on this thread, if any.
    static var current: SecureMemoryReservation? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<SecureMemoryReservation>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with `reservation` bound on this thread, then restores the previous binding.
    /// `reservation` outlives the call (the caller holds it), so the value is not retained.
    static func with<Result, Failure: Error>(_ reservation: SecureMemoryReservation,
                                             _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(reservation).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try withExtendedLifetime(reservation) { () throws(Failure) -> Result in try body() }
    }
}
