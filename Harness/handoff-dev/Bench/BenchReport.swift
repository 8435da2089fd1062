import HandoffCLI
import AccountHandoff
import AccountHandoffBench
import Foundation

/// One run of `handoff-dev bench`: what `--json` prints (keys documented in ``BenchCommand/help``)
/// and what the table shows.
struct BenchReport: Codable, Equatable {
    static let formatName = "accounthandoff-bench/3"

    let format: String
    let build: String
    let processors: Int
    let loadAverageBefore: Double
    let loadAverageAfter: Double
    let iterations: Int
    let repetitions: Int
    let quick: Bool
    let lockLimit: LockLimit
    let floor: Floor
    let session: Session
    let threads: Threads
    let pendingSenders: [PendingSendersBench.Result]
    let pendingSendersRefused: [PendingSendersBench.Refusal]
    /// One object when the lock limit applies (and not `--quick`), none otherwise.
    let pendingSendersAdmission: [PendingSendersBench.Admission]
    let codecs: CodecBench.Result
    /// Whole transfers through Debian's transit relay on 127.0.0.1 (Spec 11.7).
    let relay: RelayBench.Result

    struct Floor: Codable, Equatable {
        let microsecondsPerSession: Spread
        let crypto: CryptoCounts?

        enum CodingKeys: String, CodingKey { case microsecondsPerSession = "us_per_session", crypto }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(microsecondsPerSession, forKey: .microsecondsPerSession)
            try container.encode(crypto, forKey: .crypto)  // null without glibc, never left out
        }
    }

    struct Session: Codable, Equatable {
        let microsecondsPerSession: Spread
        /// Over every pair of a floor run and the session run right after it.
        let sessionOverFloor: Spread
        let timedPairs: Int
        let crypto: CryptoCounts?
        let cryptoEqualsFloor: Bool
        let wireBytes: Int
        let wireFrames: Int
        let qrTextCharacters: Int
        /// Heap allocations per session; absent where they cannot be counted.
        let heapAllocations: Double?

        enum CodingKeys: String, CodingKey {
            case microsecondsPerSession = "us_per_session", sessionOverFloor = "session_over_floor", timedPairs = "timed_pairs", crypto
            case cryptoEqualsFloor = "crypto_equals_floor", wireBytes = "wire_bytes", wireFrames = "wire_frames"
            case qrTextCharacters = "qr_text_characters", heapAllocations = "heap_allocations"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(microsecondsPerSession, forKey: .microsecondsPerSession)
            try container.encode(sessionOverFloor, forKey: .sessionOverFloor)
            try container.encode(timedPairs, forKey: .timedPairs)
            try container.encode(crypto, forKey: .crypto)  // null without glibc, never left out
            try container.encode(cryptoEqualsFloor, forKey: .cryptoEqualsFloor)
            try container.encode(wireBytes, forKey: .wireBytes)
            try container.encode(wireFrames, forKey: .wireFrames)
            try container.encode(qrTextCharacters, forKey: .qrTextCharacters)
            try container.encodeIfPresent(heapAllocations, forKey: .heapAllocations)
        }
    }

    struct Threads: Codable, Equatable {
        let sessionsPerSecondOneThread: Spread
        let sessionsPerSecondTwoThreads: Spread
        let floorSessionsPerSecondOneThread: Spread
        let floorSessionsPerSecondTwoThreads: Spread

        enum CodingKeys: String, CodingKey {
            case sessionsPerSecondOneThread = "sessions_per_second_1_thread"
            case sessionsPerSecondTwoThreads = "sessions_per_second_2_threads"
            case floorSessionsPerSecondOneThread = "floor_sessions_per_second_1_thread"
            case floorSessionsPerSecondTwoThreads = "floor_sessions_per_second_2_threads"
        }
    }

    enum CodingKeys: String, CodingKey {
        case format, build, processors, iterations, repetitions, quick, floor, session, threads, codecs
        case loadAverageBefore = "load_average_before", loadAverageAfter = "load_average_after", lockLimit = "lock_limit"
        case pendingSenders = "pending_senders"
        case pendingSendersRefused = "pending_senders_refused", pendingSendersAdmission = "pending_senders_admission", relay
    }

    /// The report as one JSON object, keys sorted.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

/// ``SodiumCalls/Counts`` under stable JSON keys.
struct CryptoCounts: Codable, Equatable {
    let randomCalls, randomBytes, x25519Base, x25519Shared, sha256Hashes, sha256Bytes: Int
    let hmacTags, hmacKeyBytes, hmacMessageBytes: Int
    let aeadSeals, aeadSealedBytes, aeadSealADBytes, aeadOpens, aeadOpenedBytes, aeadOpenADBytes: Int

    init(_ counts: SodiumCalls.Counts) {
        randomCalls = counts.randomCalls; randomBytes = counts.randomBytes
        x25519Base = counts.scalarMultBase; x25519Shared = counts.scalarMult
        sha256Hashes = counts.sha256Hashes; sha256Bytes = counts.sha256Bytes
        hmacTags = counts.hmacs; hmacKeyBytes = counts.hmacKeyBytes; hmacMessageBytes = counts.hmacMessageBytes
        aeadSeals = counts.aeadSeals; aeadSealedBytes = counts.aeadSealedBytes; aeadSealADBytes = counts.aeadSealADBytes
        aeadOpens = counts.aeadOpens; aeadOpenedBytes = counts.aeadOpenedBytes; aeadOpenADBytes = counts.aeadOpenADBytes
    }

    enum CodingKeys: String, CodingKey {
        case randomCalls = "random_calls", randomBytes = "random_bytes"
        case x25519Base = "x25519_base", x25519Shared = "x25519_shared"
        case sha256Hashes = "sha256_hashes", sha256Bytes = "sha256_bytes"
        case hmacTags = "hmac_tags", hmacKeyBytes = "hmac_key_bytes", hmacMessageBytes = "hmac_message_bytes"
        case aeadSeals = "aead_seals", aeadSealedBytes = "aead_sealed_bytes", aeadSealADBytes = "aead_seal_ad_bytes"
        case aeadOpens = "aead_opens", aeadOpenedBytes = "aead_opened_bytes", aeadOpenADBytes = "aead_open_ad_bytes"
    }
}
