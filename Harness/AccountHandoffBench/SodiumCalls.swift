internal import CSodiumCounter
internal import CSodium

/// The libsodium work done on the calling thread while a measurement runs, counted where
/// libsodium is called (`CSodiumCounter` defines the primitives in the program that links it
/// and forwards each call), so the bench's floor can be shown to make exactly the calls of a
/// real session without the library knowing it is measured.
package enum SodiumCalls {
    /// The libsodium calls made, and the bytes they processed (outermost calls only: the
    /// SHA-256 inside libsodium's HMAC is part of the HMAC).
    package struct Counts: Hashable, Sendable, CustomStringConvertible {
        package var randomCalls = 0, randomBytes = 0
        package var scalarMultBase = 0, scalarMult = 0
        package var sha256Hashes = 0, sha256Bytes = 0
        package var hmacs = 0, hmacKeyBytes = 0, hmacMessageBytes = 0
        package var aeadSeals = 0, aeadSealedBytes = 0, aeadSealADBytes = 0
        package var aeadOpens = 0, aeadOpenedBytes = 0, aeadOpenADBytes = 0

        package init() {}

        init(_ counts: handoff_sodium_counts) {
            randomCalls = Int(counts.random_calls)
            randomBytes = Int(counts.random_bytes)
            scalarMultBase = Int(counts.scalarmult_base)
            scalarMult = Int(counts.scalarmult)
            sha256Hashes = Int(counts.sha256_hashes)
            sha256Bytes = Int(counts.sha256_bytes)
            hmacs = Int(counts.hmac_tags)
            hmacKeyBytes = Int(counts.hmac_key_bytes)
            hmacMessageBytes = Int(counts.hmac_message_bytes)
            aeadSeals = Int(counts.aead_seals)
            aeadSealedBytes = Int(counts.aead_sealed_bytes)
            aeadSealADBytes = Int(counts.aead_seal_ad_bytes)
            aeadOpens = Int(counts.aead_opens)
            aeadOpenedBytes = Int(counts.aead_opened_bytes)
            aeadOpenADBytes = Int(counts.aead_open_ad_bytes)
        }

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

    /// Runs `body` on this thread and returns it with the libsodium calls it made, or `nil`
    /// counts where they cannot be counted (not glibc). Measurements on one thread do not nest;
    /// each thread counts its own.
    package static func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> (Result, Counts?) {
        // libsodium's start draws its guard canary (16 random bytes) once per process; it runs
        // here, outside the count, so that the first measurement in a process counts the body only.
        precondition(sodium_init() >= 0, "libsodium failed to initialise")
        guard handoff_sodium_counter_start() == 1 else { return (try body(), nil) }
        let result: Result
        do {
            result = try body()
        } catch {
            _ = handoff_sodium_counter_stop()
            throw error
        }
        return (result, Counts(handoff_sodium_counter_stop()))
    }
}
