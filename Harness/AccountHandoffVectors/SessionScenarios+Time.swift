import AccountHandoff

/// Expiry at every phase on both sides with exact and fractional boundaries, the order of
/// the clock, finished and expiry steps (Spec 6.0), and clocks that misbehave.
extension SessionScenarios {
    static var senderExpiry: [Scenario] {
        [
            Scenario("expired-awaiting-hello", "Nobody scans: the sender is alive at expiry - 0.5 and expires at expiry (t >= expiry).") { r in
                try r.sender(.tick, at: r.expiry() - 0.5)
                try r.sender(.tick, at: r.expiry())
            },
            Scenario("expired-hello-at-expiry", "A valid hello reaches the sender exactly at expiry: the session expires instead (no reveal).") { r in
                try r.scan(at: r.expiry() - 10)
                try r.deliver(from: "receiver", to: "sender", at: r.expiry())
            },
            Scenario("expired-awaiting-code-confirmation", "The sending person confirms the code too late.") { r in
                try reveal(r)
                try r.sender(.tick, at: r.expiry() - 0.25)
                try r.sender(.accept, at: r.expiry())
            },
            Scenario("expired-awaiting-accept", "The accept reaches the sender at expiry.") { r in
                try offer(r)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: r.expiry())
            },
            Scenario("expired-awaiting-credential", "The password arrives from the app at expiry; it is wiped, nothing is sent.") { r in
                try accept(r)
                try r.sender(.credential(password), at: r.expiry())
            },
            Scenario("expiry-before-frame-decoding", "At the deadline even a malformed frame ends the session as expired (Spec 6.0 step 3 before the frame steps).") { r in
                try r.scan(at: t0 + 10)
                try r.inject(Array(r.handshake().helloFrame.prefix(23)), origin: "the first 23 bytes of the hello", to: "sender", at: r.expiry())
                try r.inject([UInt8](repeating: 2, count: 4097), origin: "4097 bytes", to: "receiver", at: r.expiry() + 30)
            },
            Scenario("expiry-before-refusal", "At or after the deadline every event ends the session as expired first, even one the state would refuse (Spec 6.0 step 3 before step 4).") { r in
                try r.scan(at: t0 + 10)
                try r.sender(.accept, at: r.expiry(), note: "refused in awaitingHello, but the expiry comes first")
                try r.receiver(.reject, at: r.expiry() + 30, note: "refused in awaitingReveal, but the expiry comes first")
            },
        ]
    }

    static var receiverExpiry: [Scenario] {
        [
            Scenario("expired-at-scan", "The QR is scanned exactly at expiry + skew: refused (S2).") { r in
                try r.scan(at: r.expiry() + 30)
            },
            Scenario("expired-receiver-awaiting-reveal", "The reveal reaches the receiver at expiry + skew.") { r in
                try hello(r)
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 30)
            },
            Scenario("expired-receiver-awaiting-offer", "The offer reaches the receiver at expiry + skew.") { r in
                try reveal(r)
                try r.sender(.accept, at: r.expiry() - 1)
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 30)
            },
            Scenario("expired-receiver-boundary", "The offer reaches the receiver at expiry + skew - 0.5 (accepted); the person confirms at expiry + skew (expired).") { r in
                try reveal(r)
                try r.sender(.accept, at: r.expiry() - 1)
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 29.5)
                try r.receiver(.accept, at: r.expiry() + 30)
            },
            Scenario("expired-receiver-awaiting-credential-frame", "The credential frame reaches the receiver at expiry + skew; the sender's receipt wait then ends deliveredUnconfirmed.expired.") { r in
                try accept(r)
                try r.sender(.credential(password), at: r.expiry() - 1)
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 30)
                try r.sender(.tick, at: r.expiry() + 120)
            },
            Scenario("expired-receiver-skew-0", "A receiver with skew 0 expires exactly at expiry, the same moment as the sender.") { r in
                try r.scan(at: t0 + 10, skew: 0)
                try r.receiver(.tick, at: r.expiry() - 0.5)
                try r.receiver(.tick, at: r.expiry())
            },
            Scenario("expired-receiver-skew-120", "A receiver with skew 120 (the maximum) is alive at expiry + 119.5 and expires at expiry + 120.") { r in
                try r.scan(at: t0 + 10, skew: 120)
                try r.receiver(.tick, at: r.expiry() + 119.5)
                try r.receiver(.tick, at: r.expiry() + 120)
            },
        ]
    }

    static var endings: [Scenario] {
        [
            Scenario("events-after-the-end", "After a cancel, events at a time past the expiry: frames are ignored as sessionFinished (not expired), cancel, tick and transportLost do nothing, other local events are refused with sessionFinished (Spec 6.0 step 2 before step 3).") { r in
                try reveal(r)
                let reveal = r.lastSent["sender"]!
                try r.sender(.cancel, at: t0 + 15)
                let abort = r.lastSent["sender"]!
                try r.feed(abort, to: "receiver", at: t0 + 16)
                let late = r.expiry() + 1000
                try r.inject(Array(abort.prefix(23)), origin: "the first 23 bytes of the abort (step 2 comes before decoding)", to: "sender", at: late)
                try r.feed(r.handshake().helloFrame, to: "sender", at: late)
                try r.inject(VectorSupport.flip(r.handshake().helloFrame, at: 2), origin: "the hello with another transfer ID (step 2 comes before the transfer ID)",
                             to: "sender", at: late)
                try r.sender(.tick, at: late)
                try r.sender(.cancel, at: late)
                try r.sender(.transportLost, at: late)
                try r.sender(.accept, at: late)
                try r.sender(.reject, at: late)
                try r.sender(.credential(password), at: late, note: "refused; the password is wiped")
                try r.feed(reveal, to: "receiver", at: late)
                try r.receiver(.tick, at: late)
                try r.receiver(.cancel, at: late)
                try r.receiver(.transportLost, at: late)
                try r.receiver(.accept, at: late)
                try r.receiver(.reject, at: late)
                try r.receiver(.importFinished(.imported), at: late)
            },
        ]
    }

    static var clocks: [Scenario] {
        [
            Scenario("clock-jumps-back", "Each side's clock jumps back: an event with an earlier now is processed at the latest time seen (never refused); a jump past the deadline ends the session and a jump back does not revive it.") { r in
                try r.scan(at: t0 + 10)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 100)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 5, note: "receiver clock 5 s before its scan")
                try r.sender(.accept, at: t0 - 3600, note: "sender clock an hour before its start")
                try r.deliver(from: "sender", to: "receiver", at: t0 + 6)
                try r.receiver(.tick, at: r.expiry() + 30, note: "the receiver's clock jumps past expiry + skew")
                try r.receiver(.accept, at: t0 + 20, note: "and back: the session stays over")
                try r.sender(.tick, at: r.expiry(), note: "the sender's clock jumps to its expiry")
                try r.sender(.tick, at: t0 + 20, note: "and back")
            },
            Scenario("invalid-clock", "A now that is NaN or infinite is refused with invalidClock for every event, frames included, and changes nothing; the session then goes on.") { r in
                try r.scan(at: t0 + 10)
                let hello = r.lastSent["receiver"]!
                try r.sender(.frame(hello), at: .nan)
                try r.inject(Array(hello.prefix(23)), origin: "the hello's first 23 bytes (step 1 comes before decoding)", to: "sender", at: .nan)
                try r.inject(VectorSupport.flip(hello, at: 2), origin: "the hello with another transfer ID (step 1 comes before the transfer ID)",
                             to: "sender", at: .infinity)
                try r.sender(.tick, at: .infinity)
                try r.sender(.cancel, at: -.infinity)
                try r.feed(hello, to: "sender", at: t0 + 11)
                let reveal = r.lastSent["sender"]!
                try r.receiver(.frame(reveal), at: .nan)
                try r.receiver(.cancel, at: .infinity)
                try r.receiver(.tick, at: -.infinity)
                try r.feed(reveal, to: "receiver", at: t0 + 12)
                try r.sender(.accept, at: .nan)
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.accept, at: .infinity)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.credential(password), at: .nan, note: "refused; the password is wiped")
                try r.sender(.credential(password), at: t0 + 40)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
                try r.receiver(.importFinished(.imported), at: .nan)
                try r.receiver(.transportLost, at: .nan)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.sender(.frame(r.lastSent["receiver"]!), at: -.infinity)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
                try r.sender(.tick, at: .nan, note: "after the end too: invalidClock first")
                try r.sender(.frame(hello), at: .infinity)
            },
        ]
    }
}
