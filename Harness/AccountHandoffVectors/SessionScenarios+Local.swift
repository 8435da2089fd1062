import AccountHandoff

/// Local events: misuse in every state, and what an importing receiver does with every
/// event (Spec 6.1, 6.2 local-event tables).
extension SessionScenarios {
    static var importing: [Scenario] {
        [
            Scenario("receiver-events-while-importing", "While the app imports: cancel, accept and reject are refused, transportLost and tick do nothing, there is no expiry, and every frame is ignored (a replay by E1, an abort and a hello by E3); then the import result sends the receipt.") { r in
                try credential(r)
                let credential = r.lastSent["sender"]!
                try r.receiver(.cancel, at: t0 + 42)
                try r.receiver(.accept, at: t0 + 42)
                try r.receiver(.reject, at: t0 + 42)
                try r.receiver(.transportLost, at: t0 + 43, note: "the receipt will not arrive; the import still decides")
                try r.receiver(.tick, at: r.expiry() + 500, note: "far past expiry + skew: no expiry while importing")
                try r.feed(credential, to: "receiver", at: r.expiry() + 500, note: "the credential again: E1")
                try r.forge(by: "sender", .abort, plaintext: [1], linkID: nil, at: r.expiry() + 500)
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 500, note: "an authenticated abort at the next sequence: E3 refuses every type")
                try r.inject(unsealed(r, .offer, sequence: 3, bodyLength: 272), origin: "an offer at the next sequence", to: "receiver",
                             at: r.expiry() + 500)
                try r.feed(r.handshake().helloFrame, to: "receiver", at: r.expiry() + 500)
                try r.receiver(.importFinished(.validationFailed), at: t0 + 60, note: "processed at the latest time seen")
                try r.deliver(from: "receiver", to: "sender", at: r.expiry() + 119.5)
            },
        ]
    }

    static var misuse: [Scenario] {
        [
            Scenario("tick-in-every-state", "A tick before the deadline does nothing in every live state of both sides.") { r in
                try r.sender(.tick, at: t0 + 1)
                try r.scan(at: t0 + 10)
                try r.receiver(.tick, at: t0 + 10.5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.sender(.tick, at: t0 + 11.5)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.receiver(.tick, at: t0 + 12.5)
                try r.sender(.accept, at: t0 + 20)
                try r.sender(.tick, at: t0 + 20.5)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.tick, at: t0 + 21.5)
                try r.receiver(.accept, at: t0 + 30)
                try r.receiver(.tick, at: t0 + 30.5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.tick, at: t0 + 31.5)
                try r.sender(.credential(password), at: t0 + 40)
                try r.sender(.tick, at: t0 + 40.5)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
                try r.receiver(.tick, at: t0 + 41.5)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
            Scenario("local-misuse", "Local events in the wrong state are refused (invalidEvent) and change nothing; the transfer then completes.") { r in
                try r.sender(.accept, at: t0 + 5)
                try r.sender(.reject, at: t0 + 5)
                try r.sender(.credential(password), at: t0 + 5)
                try r.sender(.notAuthenticated, at: t0 + 5)
                try r.sender(.storeUnavailable, at: t0 + 5)
                try r.scan(at: t0 + 10)
                try r.receiver(.accept, at: t0 + 10)
                try r.receiver(.importFinished(.imported), at: t0 + 10)
                try r.receiver(.storeUnavailable, at: t0 + 10, note: "no code shown yet: nothing to decline")
                try r.receiver(.notAuthenticated, at: t0 + 10)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.sender(.credential(password), at: t0 + 12)
                try r.sender(.notAuthenticated, at: t0 + 12, note: "no password requested yet")
                try r.sender(.storeUnavailable, at: t0 + 12)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 13)
                try r.receiver(.accept, at: t0 + 14)
                try r.receiver(.importFinished(.imported), at: t0 + 14)
                try r.sender(.accept, at: t0 + 20)
                try r.sender(.accept, at: t0 + 20)
                try r.sender(.credential(password), at: t0 + 20)
                try r.sender(.notAuthenticated, at: t0 + 20)
                try r.sender(.storeUnavailable, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.importFinished(.imported), at: t0 + 22)
                try r.receiver(.accept, at: t0 + 30)
                try r.receiver(.accept, at: t0 + 30)
                try r.receiver(.importFinished(.imported), at: t0 + 30)
                try r.receiver(.notAuthenticated, at: t0 + 30, note: "the gate ran before the accept left")
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.accept, at: t0 + 35)
                try r.sender(.tick, at: t0 + 35)
                try r.sender(.credential(password), at: t0 + 40)
                try r.sender(.reject, at: t0 + 41)
                try r.sender(.accept, at: t0 + 41)
                try r.sender(.credential(password), at: t0 + 41)
                try r.sender(.notAuthenticated, at: t0 + 41, note: "the password has left")
                try r.sender(.storeUnavailable, at: t0 + 41)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
                try r.receiver(.reject, at: t0 + 45)
                try r.receiver(.storeUnavailable, at: t0 + 45, note: "the import is the app's: it reports storeFailed in its receipt")
                try r.receiver(.notAuthenticated, at: t0 + 45)
                try r.receiver(.importFinished(.declined), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
                try r.receiver(.cancel, at: t0 + 52)
            },
        ]
    }
}
