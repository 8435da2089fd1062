import HandoffCLI

extension CommandManual {
    /// `handoff-dev bench`.
    static let bench = CommandManual(
        command: "bench",
        about: [
            """
                Measures, in one run, on this machine (build with swift build -c release --product handoff-dev):
                  - the exact floor: the libsodium calls of one complete session (both sides, the same
                    calls and input sizes as a real one), made directly on preallocated buffers;
                  - the full session through both state machines (production randomness, the receiver
                    decoding the QR text), and session_over_floor, its time divided by the floor's:
                    floor and session runs alternate (floor, session, floor, session, ...), each timed
                    alone, so that noise on the host falls on both alike, and the ratio is taken per
                    pair (a session run over the floor run before it);
                  - sessions per second on 1 thread and in total on 2 threads (and the floor's), each
                    thread running for 0.1 s before the clock starts;
                  - 1,000 pending senders (100 with --quick): start and completion rates, memory maps,
                    locked memory (VmLck) and resident memory (VmRSS) while all are pending, and the
                    locked memory each pending sender adds (its guarded arena, Spec 8.5). A size the
                    system refuses (a session never keeps a secret unlocked: at the memory-lock limit,
                    ulimit -l, of a process without CAP_IPC_LOCK) is reported as refused, with how many
                    were pending then, not measured; a session takes all it needs when it starts, so a
                    start can be refused, never a completion;
                  - under a memory-lock limit that applies (not with --quick): as many senders as the
                    limit lets start, then every one of them completed, with the refusal that stopped
                    the starts;
                  - QR payload -> text -> module matrix against one raw libqrencode call, QR text
                    decode + validate, frame decode;
                  - per session: bytes on the wire, heap allocations (malloc and its kin, counted over
                    20 sessions apart from the timed ones; Linux with glibc only), and the libsodium
                    calls, counted where libsodium is called (checked to equal the floor's; Linux with
                    glibc only);
                  - R whole transfers through Debian's transit relay on 127.0.0.1 (twistd3 transitrelay,
                    package magic-wormhole-transit-relay; when it is missing the report says so): the
                    time from the scan to the code on the receiving screen (the sender already waiting
                    at the relay) and to both outcomes, the bytes each way, the relay's own count of
                    the bytes it copied, the handshake bytes, and the flights (runs of messages in one
                    direction, each crossing the relay) in all and before the code.
                Each time is measured in R repetitions of N runs: the table shows the median and the
                range [min .. max] of the repetitions (session_over_floor: of the R x N pairs).
                Nothing here is a pass/fail check: compare ratios, and measure on an idle machine.
                """,
        ],
        options: [
            CommandOption("--iterations", "N", "Runs per repetition, 1 to 100000 (default 200)."),
            CommandOption("--repetitions", "R", "Repetitions, 1 to 99 (default 7)."),
            CommandOption("--quick", nil, "100 pending senders and no lock-limit run (a bounded run for CI)."),
            CommandOption("--json", nil, "Print one JSON object instead of the table."),
        ],
        notes: [
            """
                JSON keys (times in microseconds, rates per second; each spread is
                {"median", "min", "max"} over the repetitions):
                  format ("accounthandoff-bench/3"), build ("release" or "debug"), processors,
                  load_average_before, load_average_after, iterations, repetitions, quick;
                  lock_limit: kib (RLIMIT_MEMLOCK in KiB, null when unlimited), applies (false when
                    unlimited or when the process has CAP_IPC_LOCK);
                  floor: us_per_session (spread), crypto (counts, null without glibc);
                  session: us_per_session (spread over repetitions), session_over_floor (spread over
                    pairs), timed_pairs (R x N), crypto (counts, null without glibc),
                    crypto_equals_floor (true when the two counts are equal), wire_bytes, wire_frames,
                    qr_text_characters, heap_allocations (per session over 20 sessions: calls to
                    malloc, calloc, realloc, memalign, posix_memalign and aligned_alloc on the bench's
                    thread; absent without glibc; Scripts/allocations.sh counts the same calls under
                    callgrind, by site);
                  threads: sessions_per_second_1_thread, sessions_per_second_2_threads,
                    floor_sessions_per_second_1_thread, floor_sessions_per_second_2_threads (spreads);
                  pending_senders: a list, one object per size measured: senders, repetitions,
                    starts_per_second, completions_per_second, memory_maps, locked_kib, resident_kib
                    (spreads, with every sender pending), before ({memory_maps, locked_kib,
                    resident_kib} before the first start), locked_bytes_per_sender (the locked memory
                    one pending sender adds);
                  pending_senders_refused: a list, one object per size the system refused: senders,
                    pending_when_refused, reason (why the arena was refused, such as
                    lockLimitReached), locked_kib (VmLck then);
                  pending_senders_admission: one object when the lock limit applies (and not --quick),
                    none otherwise: admitted (senders started before the first refusal), completed
                    (of those, the sessions that then completed), refused_reason, admitted_per_mib,
                    sender_arena_bytes (what a sender's arena asks for; it is whole pages), locked_kib
                    (VmLck with every admitted sender pending);
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
                """,
        ])
}
