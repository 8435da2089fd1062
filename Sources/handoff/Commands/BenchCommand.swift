import AccountHandoff
import Foundation

/// `handoff bench`: the performance of a whole session against its exact libsodium floor, on
/// one and two threads, with pending senders at scale, the QR and frame codecs, and what a
/// session costs in libsodium calls, guarded memory and wire bytes (issue 12). Times are this
/// machine's; ratios are the numbers to compare across machines.
enum BenchCommand {
    static let specification = ArgumentSpecification(
        command: "bench", valueOptions: ["--iterations", "--repetitions"], flags: ["--json", "--quick"],
        positionals: 0...0, positionalName: "")

    static let help = """
        Usage: handoff bench [--iterations N] [--repetitions R] [--quick] [--json]

        Measures, in one run, on this machine (build with swift build -c release --product handoff):
          - the exact floor: the libsodium calls of one complete session (both sides, the same
            calls and input sizes as a real one), made directly on preallocated buffers;
          - the full session through both state machines (production randomness, the receiver
            decoding the QR text), and session_over_floor, its time divided by the floor's:
            floor and session runs alternate (floor, session, floor, session, ...), each timed
            alone, so that noise on the host falls on both alike, and the ratio is taken per
            pair (a session run over the floor run before it);
          - sessions per second on 1 thread and in total on 2 threads (and the floor's), each
            thread running for 0.1 s before the clock starts;
          - 1,000 and 100,000 pending senders: start and completion rates, memory maps,
            locked memory (VmLck) and resident memory (VmRSS) while all are pending. A size
            the guarded pool refuses (it never keeps a secret unlocked: at the memory-lock
            limit, ulimit -l, of a process without CAP_IPC_LOCK, 8 MiB admits 1,000 but not
            100,000) is reported as refused, with how many were pending then, not measured;
          - QR payload -> text -> module matrix against one raw libqrencode call, QR text
            decode + validate, frame decode;
          - per session: bytes on the wire, guarded allocations and their system calls, and the
            libsodium calls (checked to equal the floor's);
          - R whole transfers through Debian's transit relay on 127.0.0.1 (twistd3 transitrelay,
            package magic-wormhole-transit-relay; when it is missing the report says so): the
            time from the scan to the code on the receiving screen (the sender already waiting
            at the relay) and to both outcomes, the bytes each way, the relay's own count of
            the bytes it copied, the handshake bytes, and the flights (runs of messages in one
            direction, each crossing the relay) in all and before the code.
        Each time is measured in R repetitions of N runs: the table shows the median and the
        range [min .. max] of the repetitions (session_over_floor: of the R x N pairs). The
        100,000 case runs min(R, 3) repetitions.
        Nothing here is a pass/fail check: compare ratios, and measure on an idle machine.

        Options:
          --iterations N    Runs per repetition, 1 to 100000 (default 200).
          --repetitions R   Repetitions, 1 to 99 (default 7).
          --quick           Skip the 100,000 pending senders (a bounded run for CI).
          --json            Print one JSON object instead of the table.

        JSON keys (times in microseconds, rates per second; each spread is
        {"median", "min", "max"} over the repetitions):
          format ("accounthandoff-bench/2"), build ("release" or "debug"), processors,
          load_average_before, load_average_after, iterations, repetitions, quick;
          lock_limit: kib (RLIMIT_MEMLOCK in KiB, null when unlimited), applies (false when
            unlimited or when the process has CAP_IPC_LOCK);
          floor: us_per_session (spread), crypto (counts);
          session: us_per_session (spread over repetitions), session_over_floor (spread over
            pairs), timed_pairs (R x N), crypto (counts),
            crypto_equals_floor (true when the two counts are equal), wire_bytes, wire_frames,
            qr_text_characters, guarded_allocations, guarded_releases, guarded_system_calls
            (per session, from the pool's statistics over the timed sessions);
          threads: sessions_per_second_1_thread, sessions_per_second_2_threads,
            floor_sessions_per_second_1_thread, floor_sessions_per_second_2_threads (spreads);
          pending_senders: a list, one object per size measured: senders, repetitions,
            starts_per_second, completions_per_second, memory_maps, locked_kib, resident_kib
            (spreads, with every sender pending), before ({memory_maps, locked_kib,
            resident_kib} before the first start), guarded_slabs, guarded_locked_kib;
          pending_senders_skipped: the sizes --quick skipped;
          pending_senders_refused: a list, one object per size the pool refused: senders,
            pending_when_refused, refused_while ("starting" or "completing"), reason (the
            pool's failure, such as lockLimitReached), guarded_locked_kib (held then);
          codecs: qr_matrix_us, qr_raw_libqrencode_us, qr_matrix_over_raw, qr_text_decode_us,
            frame_decode_us_per_frame (spreads), qr_version, qr_error_correction;
          relay: relay (the command, or why it is missing), available, sessions, scan_to_code_ms,
            transfer_ms (spreads, milliseconds), bytes_sender_to_receiver,
            bytes_receiver_to_sender (admission and frames with their length prefixes),
            frames_sender_to_receiver, frames_receiver_to_sender, relay_copied_bytes (the
            relay's usage record), handshake_bytes, flights, flights_before_code (null when
            the relay is missing).
          Counts: random_calls, random_bytes, x25519_base, x25519_shared, sha256_hashes,
            sha256_bytes, hmac_tags, hmac_key_bytes, hmac_message_bytes, aead_seals,
            aead_sealed_bytes, aead_seal_ad_bytes, aead_opens, aead_opened_bytes,
            aead_open_ad_bytes.
        """

    static func run(_ arguments: [String], console: Console) async throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let iterations = try number(parsed, "--iterations", default: 200, in: 1...100_000)
        let repetitions = try number(parsed, "--repetitions", default: 7, in: 1...99)
        let quick = parsed.has("--quick")
        let session = ReferenceSession.typical
        let loadBefore = ProcessProbe.loadAverage()
        let lockLimit = LockLimit.current()
        let report: BenchReport
        let sessionCounts: CryptoMeter.Counts
        do {
            let sessions = try SessionBench(session: session, iterations: iterations, repetitions: repetitions).run()
            var pending: [PendingSendersBench.Result] = []
            var refused: [PendingSendersBench.Refusal] = []
            for senders in quick ? [1_000] : [1_000, 100_000] {
                let rounds = senders > 1_000 ? min(repetitions, 3) : repetitions
                switch try PendingSendersBench(session: session, senders: senders, repetitions: rounds).run() {
                case .measured(let result): pending.append(result)
                case .refused(let refusal): refused.append(refusal)
                }
            }
            let codecs = try CodecBench(session: session, iterations: iterations, repetitions: repetitions).run()
            let relay = try await RelayBench(repetitions: repetitions).run()
            sessionCounts = sessions.sessionCounts
            report = BenchReport(
                format: BenchReport.formatName, build: buildName, processors: ProcessInfo.processInfo.activeProcessorCount,
                loadAverageBefore: loadBefore, loadAverageAfter: ProcessProbe.loadAverage(),
                iterations: iterations, repetitions: repetitions, quick: quick, lockLimit: lockLimit,
                floor: .init(microsecondsPerSession: sessions.floorMicroseconds, crypto: CryptoCounts(sessions.floorCounts)),
                session: .init(
                    microsecondsPerSession: sessions.sessionMicroseconds, sessionOverFloor: sessions.sessionOverFloor,
                    timedPairs: sessions.timedPairs,
                    crypto: CryptoCounts(sessions.sessionCounts), cryptoEqualsFloor: sessions.sessionCounts == sessions.floorCounts,
                    wireBytes: sessions.wire.bytes, wireFrames: sessions.wire.frames, qrTextCharacters: sessions.qrTextCharacters,
                    guardedAllocations: sessions.guardedAllocationsPerSession, guardedReleases: sessions.guardedReleasesPerSession,
                    guardedSystemCalls: sessions.guardedSystemCallsPerSession),
                threads: .init(
                    sessionsPerSecondOneThread: sessions.sessionsPerSecondOneThread,
                    sessionsPerSecondTwoThreads: sessions.sessionsPerSecondTwoThreads,
                    floorSessionsPerSecondOneThread: sessions.floorSessionsPerSecondOneThread,
                    floorSessionsPerSecondTwoThreads: sessions.floorSessionsPerSecondTwoThreads),
                pendingSenders: pending, pendingSendersSkipped: quick ? [100_000] : [], pendingSendersRefused: refused,
                codecs: codecs, relay: relay)
        } catch {
            throw CLIError(error.message, exitCode: .failure)
        }
        console.line(parsed.has("--json") ? report.json() : BenchTable.render(report, sessionCounts: sessionCounts))
        return .success
    }

    private static func number(_ parsed: ParsedArguments, _ option: String, default value: Int,
                               in range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let text = parsed.value(option) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound).", command: "bench")
        }
        return number
    }

    private static var buildName: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }
}
