#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the libsodium work done on the calling thread while a measurement runs, so the
/// benchmark's floor can be shown to make exactly the calls of a real session.
/// Visible only inside this package. When no measurement runs, recording costs one
/// thread-local read.
package enum CryptoMeter {
    /// The libsodium calls made, and the bytes they processed.
    package struct Counts: Hashable, Sendable, CustomStringConvertible {
        package var randomCalls = 0, randomBytes = 0
        package var scalarMultBase = 0, scalarMult = 0
        package var sha256Hashes = 0, sha256Bytes = 0
        package var hmacs = 0, hmacKeyBytes = 0, hmacMessageBytes = 0
        package var aeadSeals = 0, aeadSealedBytes = 0, aeadSealADBytes = 0
        package var aeadOpens = 0, aeadOpenedBytes = 0, aeadOpenADBytes = 0

        package init() {}

        /// One line per primitive.
        package var description: String {
            """
            random: \(randomCalls) calls, \(randomBytes) bytes
            X25519: \(scalarMultBase) base, \(scalarMult) shared
            SHA-256: \(sha256Hashes) hashes, \(sha256Bytes) bytes
            HMAC-SHA256: \(hmacs) tags, \(hmacKeyBytes) key bytes, \(hmacMessageBytes) message bytes
            AEAD seal: \(aeadSeals) calls, \(aeadSealedBytes) plaintext bytes, \(aeadSealADBytes) AD bytes
            AEAD open: \(aeadOpens) calls, \(aeadOpenedBytes) ciphertext bytes, \(aeadOpenADBytes) AD bytes
            """
        }
    }

    private final class Box { var counts = Counts() }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` on this thread and returns what it made libsodium do. Measurements do not nest.
    package static func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> (Result, Counts) {
        let box = Box()
        let unmanaged = Unmanaged.passRetained(box)
        pthread_setspecific(key, unmanaged.toOpaque())
        defer {
            pthread_setspecific(key, nil)
            unmanaged.release()
        }
        let result = try body()
        return (result, box.counts)
    }

    /// Adds to the running measurement of this thread, if any.
    @inline(__always)
    static func record(_ update: (inout Counts) -> Void) {
        guard let raw = pthread_getspecific(key) else { return }
        update(&Unmanaged<Box>.fromOpaque(raw).takeUnretainedValue().counts)
    }

    /// For the benchmark's floor, which calls libsodium directly: records like the crypto layer.
    package static func recordForFloor(_ update: (inout Counts) -> Void) { record(update) }
}
