import AccountHandoff

extension SessionScenarios {
    /// The gate declarations (Spec 3.4 `senderGate`, 3.6 `receiverGate`): an accept with an
    /// undefined `receiverGate` from a key-holding receiver ends the sender. Both declared values 2
    /// travel in `happy-declined`; the offer's undefined values are plaintext vectors
    /// (`InvalidOfferVectors`), and a receiver ends on an offer that does not decode as in the
    /// forged-offer sessions of `authenticatedInvalid`.
    static var gateDeclarations: [Scenario] {
        [
            Scenario("authenticated-bad-receiver-gate-0", "A key-holding receiver's accept declares receiverGate 0: the sender ends with failed.malformed.receiverGate, sends no frame and never asks for the password.") { r in
                try offer(r)
                try r.forge(by: "receiver", .accept, plaintext: [0], linkID: r.account().linkID, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            },
            Scenario("authenticated-bad-receiver-gate-3", "A key-holding receiver's accept declares receiverGate 3 (the first undefined value): failed.malformed.receiverGate.") { r in
                try offer(r)
                try r.forge(by: "receiver", .accept, plaintext: [3], linkID: r.account().linkID, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            },
        ]
    }
}
