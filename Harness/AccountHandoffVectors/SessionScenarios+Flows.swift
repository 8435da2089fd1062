import AccountHandoff

/// Completed transfers, rejections, cancellations, delivered-unconfirmed endings and
/// transport loss (Spec 6.1, 6.2, 6.4).
extension SessionScenarios {
    static var happy: [Scenario] {
        [
            Scenario("happy-imported", "Complete transfer; the receiver imports and validates the account.") { try complete($0, .imported) },
            Scenario("happy-validation-failed", "Complete transfer; validation against the mail server fails, the receiver discards the account.") {
                try complete($0, .validationFailed)
            },
            Scenario("happy-declined", "Complete transfer between two devices that do not ask their people (senderGate 2 in the offer, receiverGate 2 in the accept: showAccount and requestCredential say so); the receiving app declines to replace an existing account.",
                     senderGate: .skipped) { r in
                try r.scan(at: t0 + 10, localGate: .skipped)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.credential(password), at: t0 + 40)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
                try r.receiver(.importFinished(.declined), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
            Scenario("happy-longest-password", "Complete transfer of a 1022-byte password (the maximum); an empty and a 1023-byte password are refused first.") { r in
                try accept(r)
                try r.sender(.credential([]), at: t0 + 39, note: "empty password: refused, state unchanged")
                try r.sender(.credential([UInt8](repeating: 0x61, count: 1023)), at: t0 + 39, note: "1023 bytes: refused, state unchanged")
                try r.sender(.credential(VectorSupport.bytes(seed: 7, count: 1022)), at: t0 + 40)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
            Scenario("happy-shortest-lifetime-fractional-times", "Lifetime 30 s, started at t0 + 0.75 (expiry = floor(start) + 30); every event at a fractional time just before a boundary.",
                     start: t0 + 0.75, lifetime: 30) { r in
                let expiry = r.expiry()
                try r.scan(at: t0 + 1.25)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 1.5)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 1.75)
                try r.sender(.accept, at: t0 + 2.25)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 2.5)
                try r.receiver(.accept, at: t0 + 3.5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 4.25)
                try r.sender(.credential(password), at: expiry - 0.5, note: "half a second before the sender's expiry")
                try r.deliver(from: "sender", to: "receiver", at: expiry + 29.75, note: "a quarter second before expiry + skew")
                try r.receiver(.importFinished(.imported), at: expiry + 500.5, note: "importing never expires")
                try r.deliver(from: "receiver", to: "sender", at: expiry + 119.5, note: "half a second before expiry + 120")
            },
            Scenario("happy-longest-lifetime", "Lifetime 600 s (the maximum): the transfer completes 590 s after the start.", lifetime: 600) { r in
                try r.scan(at: t0 + 500)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 501)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 502)
                try r.sender(.accept, at: t0 + 510)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 511)
                try r.receiver(.accept, at: t0 + 520)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 521)
                try r.sender(.credential(password), at: t0 + 580)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 581)
                try r.receiver(.importFinished(.imported), at: t0 + 589)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 590)
            },
        ]
    }

    static var rejections: [Scenario] {
        [
            Scenario("receiver-rejects-before-offer", "The receiving person sees different codes before any account data arrives.") { r in
                try reveal(r)
                try r.receiver(.reject, at: t0 + 15)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 16)
            },
            Scenario("receiver-rejects-offer", "The receiving person declines the shown account.") { r in
                try offer(r)
                try r.receiver(.reject, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            },
            Scenario("receiver-rejects-after-accept", "The receiving person changes their mind after accepting, before the credential arrives.") { r in
                try accept(r)
                try r.receiver(.reject, at: t0 + 35)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 36)
                try r.sender(.credential(password), at: t0 + 40, note: "too late: the session is over (the password is wiped)")
            },
            Scenario("sender-rejects-code", "The sending person sees different codes and rejects before the reveal arrived at the receiver.") { r in
                try hello(r)
                try r.sender(.reject, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21, note: "the abort overtakes the reveal (sequence 1 before 0)")
            },
            Scenario("sender-rejects-awaiting-accept", "The sending person rejects after the offer was sent.") { r in
                try offer(r)
                try r.sender(.reject, at: t0 + 25)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 26)
            },
            Scenario("sender-rejects-awaiting-credential", "The sending person rejects instead of re-authenticating.") { r in
                try accept(r)
                try r.sender(.reject, at: t0 + 35)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 36)
            },
            Scenario("wrong-code-typed", "The sending person types a code that does not match the receiving screen's (Spec 4.4), then declines.") { r in
                try reveal(r)
                try r.sender(.codeTyped(otherCode(try r.senderCode())), at: t0 + 15, note: "a try is used; the state stays")
                try r.sender(.reject, at: t0 + 16)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 17)
            },
            Scenario("code-rejected-before-code-exists", "reject while the receiver awaits the reveal is refused (no code shown yet); once the code is shown it rejects.") { r in
                try hello(r)
                try r.receiver(.reject, at: t0 + 11.5, note: "no code yet: refused, state unchanged")
                try r.receiver(.accept, at: t0 + 11.5, note: "nothing to confirm yet: refused")
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.receiver(.reject, at: t0 + 13)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 14)
            },
        ]
    }

    static var cancels: [Scenario] {
        [
            Scenario("sender-cancels-awaiting-hello", "The sender cancels while its QR is shown (no keys, no frame); a late hello is ignored and the receiver expires at expiry + skew.") { r in
                try r.sender(.cancel, at: t0 + 5)
                try r.scan(at: t0 + 10)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.receiver(.tick, at: r.expiry() + 29.5, note: "receiver: half a second before expiry + skew, still pending")
                try r.receiver(.tick, at: r.expiry() + 30)
            },
            Scenario("sender-cancels-awaiting-code-confirmation", "The sender cancels while the code is shown; its abort overtakes the reveal, which then arrives late.") { r in
                try hello(r)
                let reveal = r.lastSent["sender"]!
                try r.sender(.cancel, at: t0 + 15)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 16)
                try r.feed(reveal, to: "receiver", at: t0 + 17, note: "the reveal after the end")
            },
            Scenario("sender-cancels-awaiting-accept", "The sender cancels after sending the offer.") { r in
                try offer(r)
                try r.sender(.cancel, at: t0 + 25)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 26)
            },
            Scenario("sender-cancels-awaiting-credential", "The sender cancels instead of re-authenticating.") { r in
                try accept(r)
                try r.sender(.cancel, at: t0 + 35)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 36)
            },
            Scenario("receiver-cancels-awaiting-reveal", "The receiver cancels right after scanning: the abort reaches the sender before the hello (ignored there), then after it (cancelled.peer).") { r in
                try r.scan(at: t0 + 10)
                let hello = r.lastSent["receiver"]!
                try r.receiver(.cancel, at: t0 + 10.5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11, note: "a non-hello frame at a sender awaiting its hello")
                try r.feed(hello, to: "sender", at: t0 + 12)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 13)
            },
            Scenario("receiver-cancels-awaiting-offer", "The receiver cancels while its code is shown.") { r in
                try reveal(r)
                try r.receiver(.cancel, at: t0 + 13)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 14)
            },
            Scenario("receiver-cancels-reviewing-offer", "The receiver cancels while reviewing the account.") { r in
                try offer(r)
                try r.receiver(.cancel, at: t0 + 25)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 26)
            },
            Scenario("receiver-cancels-awaiting-credential-frame", "The receiver cancels after accepting.") { r in
                try accept(r)
                try r.receiver(.cancel, at: t0 + 35)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 36)
            },
            Scenario("crossing-abort", "The sender cancels while the receiver's accept is in flight: both transcripts differ, the abort (bound to TH1) still opens; the accept is ignored after the end.") { r in
                try offer(r)
                try r.receiver(.accept, at: t0 + 30)
                try r.sender(.cancel, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 31)
            },
        ]
    }

    static var deliveredUnconfirmed: [Scenario] {
        [
            Scenario("sender-cancels-awaiting-receipt", "The sender cancels after the credential left: deliveredUnconfirmed.cancelled.local, no frame; the receiver still imports, its receipt arrives after the end.") { r in
                try accept(r)
                try r.sender(.credential(password), at: t0 + 40)
                try r.sender(.cancel, at: t0 + 42)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 43, note: "the credential, sent before the cancel")
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
            Scenario("expired-awaiting-receipt", "The receipt wait ends at expiry + 120: alive at expiry and at expiry + 119.5, deliveredUnconfirmed.expired at expiry + 120; the late receipt is ignored.") { r in
                try credential(r)
                try r.sender(.tick, at: r.expiry(), note: "past the expiry, but the receipt wait goes on")
                try r.sender(.tick, at: r.expiry() + 119.5)
                try r.receiver(.importFinished(.imported), at: r.expiry() + 119.75)
                try r.sender(.tick, at: r.expiry() + 120)
                try r.deliver(from: "receiver", to: "sender", at: r.expiry() + 121)
            },
            Scenario("receipt-during-receipt-wait", "The receipt reaches the sender after the expiry but within the receipt wait: completed.imported.") { r in
                try credential(r)
                try r.receiver(.importFinished(.imported), at: r.expiry() + 60)
                try r.deliver(from: "receiver", to: "sender", at: r.expiry() + 60.5)
            },
            Scenario("transport-lost-awaiting-receipt", "The sender's transport closes after the credential left: deliveredUnconfirmed.failed.transportLost.") { r in
                try accept(r)
                try r.sender(.credential(password), at: t0 + 40)
                try r.sender(.transportLost, at: t0 + 41)
            },
            Scenario("receiver-cancels-credential-in-flight", "The receiver cancels while the credential is in flight: the sender ends deliveredUnconfirmed.cancelled.peer; the credential reaches a finished receiver.") { r in
                try accept(r)
                try r.sender(.credential(password), at: t0 + 40)
                let credential = r.lastSent["sender"]!
                try r.receiver(.cancel, at: t0 + 40)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 41)
                try r.feed(credential, to: "receiver", at: t0 + 41)
            },
            Scenario("receiver-rejects-credential-in-flight", "The receiver rejects while the credential is in flight: the sender ends deliveredUnconfirmed.rejected.peer.") { r in
                try accept(r)
                try r.sender(.credential(password), at: t0 + 40)
                try r.receiver(.reject, at: t0 + 40)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 41)
            },
        ]
    }

    static var transportLoss: [Scenario] {
        [
            Scenario("transport-lost-sender-awaiting-hello", "The sender's transport closes before any hello.") { r in
                try r.sender(.transportLost, at: t0 + 5)
            },
            Scenario("transport-lost-sender-awaiting-code-confirmation", "The sender's transport closes while the code is shown.") { r in
                try hello(r)
                try r.sender(.transportLost, at: t0 + 15)
            },
            Scenario("transport-lost-sender", "The sender's transport closes while it waits for the accept; a second loss after the end does nothing.") { r in
                try offer(r)
                try r.sender(.transportLost, at: t0 + 25)
                try r.sender(.transportLost, at: t0 + 26, note: "after the end: nothing")
            },
            Scenario("transport-lost-sender-awaiting-credential", "The sender's transport closes while the app re-authenticates.") { r in
                try accept(r)
                try r.sender(.transportLost, at: t0 + 35)
            },
            Scenario("transport-lost-receiver-awaiting-reveal", "The receiver's transport closes before the reveal.") { r in
                try r.scan(at: t0 + 10)
                try r.receiver(.transportLost, at: t0 + 11)
            },
            Scenario("transport-lost-receiver-awaiting-offer", "The receiver's transport closes while its code is shown.") { r in
                try reveal(r)
                try r.receiver(.transportLost, at: t0 + 15)
            },
            Scenario("transport-lost-receiver-reviewing-offer", "The receiver's transport closes while the account is shown.") { r in
                try offer(r)
                try r.receiver(.transportLost, at: t0 + 25)
            },
            Scenario("transport-lost-receiver", "The receiver's transport closes while it waits for the credential.") { r in
                try accept(r)
                try r.receiver(.transportLost, at: t0 + 35)
            },
        ]
    }
}
