import AccountHandoff

/// A step of a live session that finds no guarded memory (Spec 6.0 step 4, 8.5): the side
/// that holds its peer's keys before the credential left tells it with `abort(7)` and both
/// end with the matching failures; the sender in `awaitingHello` and `awaitingReceipt` ends
/// without a frame; the checks that come first (E1-E4, H1-H2, a password's length, the expiry)
/// still decide first; and steps that need no memory run as usual.
extension SessionScenarios {
    static var memoryRefused: [Scenario] {
        [
            Scenario("receiver-memory-refused-reveal", "With no guarded memory the receiver still ignores a tampered reveal (E4 first), then ends on the genuine one with abort(7) and failed.secureMemoryUnavailable; the sender, awaiting the typed code, ends failed.peerSecureMemoryUnavailable.") { r in
                try hello(r)
                try r.withoutGuardedMemory {
                    try tampered(r, "sender", byte: 40, to: "receiver", at: t0 + 12)
                    try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                }
                try r.deliver(from: "receiver", to: "sender", at: t0 + 13)
            },
            Scenario("sender-memory-refused-credential", "Typing the code and accepting need no guarded memory; then, with none, a password of 0 bytes is still refused (its length first) and the genuine one ends the sender with abort(7) and failed.secureMemoryUnavailable; the receiver, awaiting the credential, ends failed.peerSecureMemoryUnavailable.") { r in
                try reveal(r)
                try r.withoutGuardedMemory { try r.sender(.accept, at: t0 + 20, note: "the offer is sealed from its ordinary bytes") }
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.withoutGuardedMemory { try r.receiver(.accept, at: t0 + 30, note: "the accept needs no guarded memory") }
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.withoutGuardedMemory {
                    try r.sender(.credential([]), at: t0 + 40)
                    try r.sender(.credential(password), at: t0 + 40)
                }
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
            },
            Scenario("receiver-memory-refused-credential", "The receiver finds no guarded memory to open the credential: abort(7) and failed.secureMemoryUnavailable; nothing reaches its app, and the sender, whose password left, ends deliveredUnconfirmed.failed.peerSecureMemoryUnavailable.") { r in
                try accept(r)
                try r.sender(.credential(password), at: t0 + 40)
                try r.withoutGuardedMemory { try r.deliver(from: "sender", to: "receiver", at: t0 + 41) }
                try r.deliver(from: "receiver", to: "sender", at: t0 + 42)
            },
            Scenario("sender-memory-refused-receipt", "The sender finds no guarded memory to open the receipt: the password has left, so it ends deliveredUnconfirmed.failed.secureMemoryUnavailable without a frame, while the receiver completed its import.") { r in
                try credential(r)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.withoutGuardedMemory { try r.deliver(from: "receiver", to: "sender", at: t0 + 51) }
            },
            Scenario("sender-memory-refused-hello", "With no guarded memory the sender still ignores a hello with sequence 1 (H2 first), then ends on the genuine hello at H3 with failed.secureMemoryUnavailable and no frame (no receiver's session exists yet); the receiver sees the connection close.") { r in
                try r.scan(at: t0 + 10)
                let hello = r.lastSent["receiver"]!
                try r.withoutGuardedMemory {
                    try r.inject(VectorSupport.patched(hello, 21, 1), origin: "frame \(r.frameID(hello)) with sequence 1", to: "sender",
                                 at: t0 + 11)
                    try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                }
                try r.receiver(.transportLost, at: t0 + 12)
            },
            Scenario("sender-memory-refused-hello-at-expiry", "A hello that reaches the sender at its expiry with no guarded memory: the expiry rule (6.0 step 3) ends it expired before the row could need memory; the receiver's own expiry sends abort(6).") { r in
                try r.scan(at: t0 + 10)
                try r.withoutGuardedMemory { try r.deliver(from: "receiver", to: "sender", at: r.expiry()) }
                try r.receiver(.tick, at: r.expiry() + 30)
            },
        ]
    }
}
