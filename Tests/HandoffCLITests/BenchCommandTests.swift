import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// `handoff-dev bench`: the shape of its table and JSON on a short run of the debug binary, never
/// its times. The counts of libsodium calls per session must equal the floor's.
@Suite(.startsProcesses, .serialized) struct BenchCommandTests {
    /// Every key of the JSON object, by level, as the help documents it.
    static let topLevelKeys: Set<String> = [
        "format", "build", "processors", "load_average_before", "load_average_after", "iterations", "repetitions", "quick",
        "lock_limit", "floor", "session", "threads", "pending_senders", "pending_senders_refused",
        "pending_senders_admission", "codecs", "relay",
    ]
    static let lockLimitKeys: Set<String> = ["kib", "applies"]
    static let countKeys: Set<String> = [
        "random_calls", "random_bytes", "x25519_base", "x25519_shared", "sha256_hashes", "sha256_bytes", "hmac_tags",
        "hmac_key_bytes", "hmac_message_bytes", "aead_seals", "aead_sealed_bytes", "aead_seal_ad_bytes", "aead_opens",
        "aead_opened_bytes", "aead_open_ad_bytes",
    ]
    static let sessionKeys: Set<String> = [
        "us_per_session", "session_over_floor", "timed_pairs", "crypto", "crypto_equals_floor", "wire_bytes", "wire_frames",
        "qr_text_characters", "heap_allocations",
    ]
    static let threadKeys: Set<String> = [
        "sessions_per_second_1_thread", "sessions_per_second_2_threads", "floor_sessions_per_second_1_thread",
        "floor_sessions_per_second_2_threads",
    ]
    static let pendingKeys: Set<String> = [
        "senders", "repetitions", "starts_per_second", "completions_per_second", "memory_maps", "locked_kib", "resident_kib",
        "before", "locked_bytes_per_sender",
    ]
    static let refusedKeys: Set<String> = ["senders", "pending_when_refused", "reason", "locked_kib"]
    static let admissionKeys: Set<String> = [
        "admitted", "completed", "refused_reason", "admitted_per_mib", "sender_arena_bytes", "locked_kib",
    ]
    static let codecKeys: Set<String> = [
        "qr_matrix_us", "qr_raw_libqrencode_us", "qr_matrix_over_raw", "qr_text_decode_us", "frame_decode_us_per_frame",
        "qr_version", "qr_error_correction",
    ]
    static let spreadKeys: Set<String> = ["median", "min", "max"]

    @Test(.slowSlice) func quickJSONHasEveryKeyAndTheSessionsCountsEqualTheFloors() throws {
        let run = try BenchProcess.run(["bench", "--quick", "--json", "--iterations", "2", "--repetitions", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(report.keys) == Self.topLevelKeys)
        #expect(report["format"] as? String == "accounthandoff-bench/3")
        #expect(report["iterations"] as? Int == 2 && report["repetitions"] as? Int == 2 && report["quick"] as? Bool == true)
        #expect((report["pending_senders_refused"] as? [Any])?.isEmpty == true)
        let lockLimit = try #require(report["lock_limit"] as? [String: Any])
        #expect(Set(lockLimit.keys) == Self.lockLimitKeys)
        #expect(lockLimit["kib"] is Int || lockLimit["kib"] is NSNull)
        #expect(lockLimit["applies"] is Bool)
        // --quick leaves the lock-limit run out (BenchLockLimitTests runs it).
        #expect((report["pending_senders_admission"] as? [Any])?.isEmpty == true)

        let floor = try #require(report["floor"] as? [String: Any])
        let session = try #require(report["session"] as? [String: Any])
        #expect(Set(floor.keys) == ["us_per_session", "crypto"])
        #expect(Set(session.keys) == Self.sessionKeys)
        let floorCounts = try #require(floor["crypto"] as? [String: Int])
        let sessionCounts = try #require(session["crypto"] as? [String: Int])
        #expect(Set(sessionCounts.keys) == Self.countKeys)
        #expect(sessionCounts == floorCounts)
        #expect(session["crypto_equals_floor"] as? Bool == true)
        #expect(sessionCounts["x25519_shared"] == 2 && sessionCounts["aead_seals"] == 5 && sessionCounts["random_calls"] == 3)
        #expect(session["wire_frames"] as? Int == 6)
        #expect(session["wire_bytes"] as? Int == 88 + 72 + 296 + 41 + 1064 + 41)
        #expect(session["qr_text_characters"] as? Int == 3 + 11 * 17 + 10)  // 81 bytes: 11 full groups and 4 bytes
        // A session allocates on the heap: the two state machines at least, and the frames it sends.
        #expect((session["heap_allocations"] as? Double).map { $0 >= 2 + 6 } == true, "\(session["heap_allocations"] ?? "absent")")
        try Self.expectSpreads(floor, ["us_per_session"])
        try Self.expectSpreads(session, ["us_per_session", "session_over_floor"])
        // Floor and session alternate run by run: one ratio per pair, 2 iterations x 2 repetitions.
        #expect(session["timed_pairs"] as? Int == 4)
        let ratio = try #require(session["session_over_floor"] as? [String: Double])
        #expect(ratio["min"].map { $0 > 0 } == true)

        let threads = try #require(report["threads"] as? [String: Any])
        #expect(Set(threads.keys) == Self.threadKeys)
        try Self.expectSpreads(threads, Array(Self.threadKeys))

        let pending = try #require(report["pending_senders"] as? [[String: Any]])
        #expect(pending.count == 1)
        let hundred = try #require(pending.first)
        #expect(Set(hundred.keys) == Self.pendingKeys)
        #expect(hundred["senders"] as? Int == 100 && hundred["repetitions"] as? Int == 2)
        try Self.expectSpreads(hundred, ["starts_per_second", "completions_per_second", "memory_maps", "locked_kib", "resident_kib"])
        // Each pending sender locks its arena: whole pages, at least the bytes it asks for.
        let perSender = try #require(hundred["locked_bytes_per_sender"] as? Int)
        #expect(perSender >= 2_270 && perSender % 4_096 == 0, "\(perSender)")
        let before = try #require(hundred["before"] as? [String: Int])
        #expect(Set(before.keys) == ["memory_maps", "locked_kib", "resident_kib"])
        // /proc/self/maps is read whole: one 4,096-byte read holds at most 85 lines (of at
        // least 48 bytes), and a process linking Foundation and the project's libraries has more.
        #expect(before["memory_maps"].map { $0 > 4_096 / 48 } == true, "\(before)")
        let maps = try #require(hundred["memory_maps"] as? [String: Double])
        #expect(maps["min"].map { $0 > 4_096 / 48 } == true, "\(maps)")

        let codecs = try #require(report["codecs"] as? [String: Any])
        #expect(Set(codecs.keys) == Self.codecKeys)
        #expect(codecs["qr_error_correction"] as? String == "M")
        try Self.expectSpreads(codecs, ["qr_matrix_us", "qr_raw_libqrencode_us", "qr_matrix_over_raw", "qr_text_decode_us",
                                        "frame_decode_us_per_frame"])
    }

    /// The help names every JSON key, so the documentation cannot fall behind the output.
    @Test(.slowSlice) func helpDocumentsEveryJSONKey() throws {
        let help = try BenchProcess.run(["help", "bench"])
        #expect(help.status == 0)
        let keys = Self.topLevelKeys.union(Self.countKeys).union(Self.sessionKeys).union(Self.threadKeys)
            .union(Self.pendingKeys).union(Self.codecKeys).union(Self.spreadKeys).union(Self.lockLimitKeys)
            .union(Self.refusedKeys).union(Self.admissionKeys).union(CLIRelayBenchTests.relayKeys)
        for key in keys.sorted() {
            #expect(help.stdout.contains(key), "the help of bench does not document \(key)")
        }
        for option in ["--iterations", "--repetitions", "--quick", "--json"] { #expect(help.stdout.contains(option)) }
    }

    @Test(.slowSlice) func tableNamesEveryRow() throws {
        let run = try BenchProcess.run(["bench", "--quick", "--iterations", "1", "--repetitions", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("AccountHandoff bench: debug build"))
        #expect(run.stdout.contains("\n  lock limit (RLIMIT_MEMLOCK): "))
        #expect(run.stdout.contains(" over 1 interleaved pairs"))
        for row in ["exact floor (libsodium work of one session)", "full session, both state machines", "session_over_floor",
                    "sessions/s, 1 thread", "sessions/s, 2 threads (total)", "100 pending senders (1 repetitions)",
                    "starts/s", "completions/s", "memory maps (/proc/self/maps lines)", "locked memory (VmLck)",
                    "resident memory (VmRSS)", "locked memory per pending sender", "QR payload -> text -> matrix (AccountHandoffQR)",
                    "QR raw libqrencode call, same segments", "QR text decode + validate", "frame decode, per frame",
                    "bytes on the wire per session", "heap allocations per session",
                    "libsodium calls per session (the floor makes the same):"] {
            #expect(run.stdout.contains(row), "no row \(row)")
        }
    }

    @Test(arguments: [
        (["bench", "--iterations", "0"], "--iterations takes a whole number from 1 to 100000."),
        (["bench", "--repetitions", "100"], "--repetitions takes a whole number from 1 to 99."),
        (["bench", "--repetitions", "two"], "--repetitions takes a whole number from 1 to 99."),
        (["bench", "--json=yes"], "The option --json takes no value."),
        (["bench", "extra"], "'handoff-dev bench' takes no arguments, but got more."),
    ])
    func invalidOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let run = try BenchProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    private static func expectSpreads(_ object: [String: Any], _ keys: [String]) throws {
        for key in keys {
            let spread = try #require(object[key] as? [String: Double], "\(key) is not a spread")
            #expect(Set(spread.keys) == spreadKeys, "\(key)")
            if let low = spread["min"], let middle = spread["median"], let high = spread["max"] {
                #expect(low <= middle && middle <= high, "\(key): \(spread)")
            }
        }
    }
}

/// Runs the built `handoff-dev` and collects both output streams.
enum BenchProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        init(_ result: ChildProcess.Result) {
            status = result.status
            stdout = String(decoding: result.stdout, as: UTF8.self)
            stderr = String(decoding: result.stderr, as: UTF8.self)
        }
    }

    static func run(_ arguments: [String]) throws -> Result {
        Result(try ChildProcess.run(try binary(), arguments))
    }

    /// Runs `handoff-dev` under a memory-lock limit of `lockLimit` bytes (soft and hard), set by
    /// util-linux's `prlimit`. Root may lock past any limit with `CAP_IPC_LOCK`, so as root
    /// `setpriv` first drops that capability from the bounding set, and the exec does not grant it.
    static func run(_ arguments: [String], lockLimit: Int) throws -> Result {
        var launcher = ["--memlock=\(lockLimit):\(lockLimit)", "--"]
        if geteuid() == 0 { launcher += ["/usr/bin/setpriv", "--bounding-set=-ipc_lock", "--"] }
        return Result(try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/prlimit"), launcher + [try binary().path] + arguments))
    }

    /// The developer tool `swift build --build-tests` put next to the test bundle.
    static func binary() throws -> URL { try HandoffProcess.binary(named: "handoff-dev") }
}
