import AccountHandoff
import AccountHandoffTestSupport

/// Tampered, replayed, reordered and out-of-place frames (Spec 3.3, 5.1, 5.3, 6.0): each is
/// ignored and changes nothing, in the order of the checks.
extension SessionScenarios {
    /// A frame of the session's transfer with these fields and a seeded body (not sealed).
    static func unsealed(_ r: SessionRecorder, _ type: MessageType, sequence: UInt32, bodyLength: Int, transferID: TransferID? = nil,
                         note: String = "") -> [UInt8] {
        VectorPrimitives.frameBytes(type: type, transferID: transferID ?? r.senders["sender"]!.payload.transferID, sequence: sequence,
                                    body: VectorSupport.bytes(seed: VectorSupport.seed("\(r.name)/\(type)/\(sequence)/\(bodyLength)\(note)"), count: bodyLength))
    }

    /// The session's transfer ID with its first byte flipped.
    static func otherTransfer(_ r: SessionRecorder) -> TransferID {
        TransferID(bytes: VectorSupport.flip(r.senders["sender"]!.payload.transferID.bytes, at: 0))!
    }

    static var tampering: [Scenario] {
        [
            Scenario("tampered-hello-tag", "A relay flips a bit of the hello tag (H4); the genuine hello then succeeds.") { r in
                try r.scan(at: t0 + 10)
                try tampered(r, "receiver", byte: 87, to: "sender", at: t0 + 11)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
            },
            Scenario("tampered-hello-key", "A relay flips a bit of the receiver's public key in the hello: the tag no longer verifies.") { r in
                try r.scan(at: t0 + 10)
                try tampered(r, "receiver", byte: 30, to: "sender", at: t0 + 11)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
            },
            Scenario("tampered-reveal", "A relay flips a ciphertext bit of the reveal; the genuine reveal then shows the code.") { r in
                try hello(r)
                try tampered(r, "sender", byte: 40, to: "receiver", at: t0 + 12)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 13)
            },
            Scenario("tampered-reveal-tag", "A relay flips the last tag bit of the reveal.") { r in
                try hello(r)
                try tampered(r, "sender", byte: 71, to: "receiver", at: t0 + 12)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 13)
            },
            Scenario("tampered-offer", "A relay flips a ciphertext bit of the offer; the genuine offer then succeeds and the transfer goes on.") { r in
                try reveal(r)
                try r.sender(.accept, at: t0 + 20)
                try tampered(r, "sender", byte: 40, to: "receiver", at: t0 + 21)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            },
            Scenario("tampered-accept", "A relay flips the accept's tag; the genuine accept then succeeds.") { r in
                try offer(r)
                try r.receiver(.accept, at: t0 + 30)
                try tampered(r, "receiver", byte: 39, to: "sender", at: t0 + 31)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 32)
            },
            Scenario("tampered-credential", "A relay flips a bit of the credential ciphertext; the genuine frame then delivers the account.") { r in
                try accept(r)
                try r.sender(.credential(password), at: t0 + 40)
                try tampered(r, "sender", byte: 100, to: "receiver", at: t0 + 41)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 42)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
            Scenario("tampered-receipt", "A relay flips the receipt's status byte; the sender ignores it and then gets the genuine receipt.") { r in
                try credential(r)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try tampered(r, "receiver", byte: 24, to: "sender", at: t0 + 51)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 52)
            },
            Scenario("tampered-abort", "A relay flips a bit of an abort; the genuine abort then ends the session.") { r in
                try offer(r)
                try r.receiver(.cancel, at: t0 + 25)
                try tampered(r, "receiver", byte: 24, to: "sender", at: t0 + 26)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 27)
            },
            Scenario("tampered-headers", "Header changes on the offer (transfer ID, sequence, body length, version, a trailing byte) and a receipt relabelled as abort: each ignored with its error; the genuine frames then complete the transfer.") { r in
                try reveal(r)
                try r.sender(.accept, at: t0 + 20)
                let offer = r.lastSent["sender"]!
                let id = r.frameID(offer)
                try r.inject(VectorSupport.flip(offer, at: 2), origin: "frame \(id) with transfer ID byte 0 xor 0x01", to: "receiver", at: t0 + 21)
                try r.inject(VectorSupport.patched(offer, 21, 2), origin: "frame \(id) with sequence 2", to: "receiver", at: t0 + 21)
                try r.inject(VectorSupport.patched(offer, 23, offer[23] &+ 1), origin: "frame \(id) with body length + 1", to: "receiver", at: t0 + 21)
                try r.inject(VectorSupport.patched(offer, 0, 1), origin: "frame \(id) with version 1", to: "receiver", at: t0 + 21)
                try r.inject(offer + [0], origin: "frame \(id) with one trailing byte", to: "receiver", at: t0 + 21)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.credential(password), at: t0 + 40)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                let receipt = r.lastSent["receiver"]!
                try r.inject(VectorSupport.patched(receipt, 1, 6), origin: "frame \(r.frameID(receipt)) with type 6 (abort)", to: "sender", at: t0 + 51)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 52)
            },
        ]
    }

    static var replays: [Scenario] {
        [
            Scenario("replayed-hello", "The accepted hello arrives again, in two later states (H1).") { r in
                try hello(r)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
                let hello = r.handshake().helloFrame
                try r.sender(.accept, at: t0 + 20)
                try r.feed(hello, to: "sender", at: t0 + 21)
            },
            Scenario("replayed-reveal", "The reveal arrives twice.") { r in
                try reveal(r)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 13)
            },
            Scenario("replayed-offer", "The offer arrives twice.") { r in
                try offer(r)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
            },
            Scenario("replayed-accept", "The accept arrives twice.") { r in
                try accept(r)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 32)
            },
            Scenario("replayed-credential", "The credential frame arrives twice: the importing receiver ignores it as replayed (E1 before E3).") { r in
                try credential(r)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 42)
            },
            Scenario("replayed-after-finish", "Frames replayed after a completed session are ignored (sessionFinished); local events are refused or no-ops.") { r in
                try complete(r, .imported)
                let hello = r.handshake().helloFrame
                try r.deliver(from: "receiver", to: "sender", at: t0 + 52)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 52)
                try r.feed(hello, to: "sender", at: t0 + 53, note: "the hello after the end")
                try r.sender(.cancel, at: t0 + 53)
                try r.receiver(.tick, at: t0 + 53)
                try r.sender(.accept, at: t0 + 54)
                try r.receiver(.importFinished(.declined), at: t0 + 54)
            },
            Scenario("out-of-order", "A relay renumbers the offer to sequence 2: outOfOrder (checked before decryption), then the genuine offer is accepted.") { r in
                try reveal(r)
                try r.sender(.accept, at: t0 + 20)
                let offer = r.lastSent["sender"]!
                try r.inject(VectorSupport.patched(offer, 21, 2), origin: "frame \(r.frameID(offer)) renumbered to sequence 2", to: "receiver", at: t0 + 21)
                try r.feed(offer, to: "receiver", at: t0 + 22)
            },
            Scenario("abort-overtakes-offer", "The sender cancels right after sending its offer and the abort arrives first: aborts may skip ahead, so the receiver ends cancelled.peer; the late offer is ignored.") { r in
                try reveal(r)
                try r.sender(.accept, at: t0 + 20)
                let offer = r.lastSent["sender"]!
                try r.sender(.cancel, at: t0 + 21)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
                try r.feed(offer, to: "receiver", at: t0 + 23)
            },
            Scenario("qr-scanned-twice", "The same device scans the QR a second time: refused by its registry; the first scan's session goes on.") { r in
                try r.scan(at: t0 + 10, registry: "receiving-device")
                try r.scan("receiver-again", at: t0 + 12, registry: "receiving-device")
                try r.deliver(from: "receiver", to: "sender", at: t0 + 13)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 14)
            },
        ]
    }

    static var frameChecks: [Scenario] {
        [
            Scenario("receiver-frame-checks-in-order", "Frames at a receiver awaiting the offer, each failing exactly one step, in the order of Spec 6.0 and 5.3: decoding, transfer ID, hello, E1, E2 (aborts exempt), E3, E4; then the genuine offer.") { r in
                try reveal(r)
                let reveal = r.lastSent["sender"]!
                let now = t0 + 15
                try r.inject(Array(repeating: 0, count: 4097), origin: "4097 zero bytes", to: "receiver", at: now)
                try r.inject(VectorSupport.patched(reveal, 0, 1), origin: "the reveal with version 1", to: "receiver", at: now)
                try r.inject(unsealed(r, .offer, sequence: 1, bodyLength: 272, transferID: otherTransfer(r)) + [0],
                             origin: "an offer for another transfer with a trailing byte (decoding before the transfer ID)", to: "receiver", at: now)
                try r.inject(VectorSupport.flip(r.handshake().helloFrame, at: 2),
                             origin: "the hello with another transfer ID (the transfer ID before the hello rule)", to: "receiver", at: now)
                try r.feed(r.handshake().helloFrame, to: "receiver", at: now, note: "a hello at the receiver")
                try r.feed(reveal, to: "receiver", at: now, note: "the reveal again: E1")
                try r.inject(unsealed(r, .credential, sequence: 0, bodyLength: 1040), origin: "a credential at sequence 0 (E1 before E3)",
                             to: "receiver", at: now)
                try r.inject(unsealed(r, .offer, sequence: 2, bodyLength: 272), origin: "an offer at sequence 2 (E2)", to: "receiver", at: now)
                try r.inject(unsealed(r, .credential, sequence: 2, bodyLength: 1040), origin: "a credential at sequence 2 (E2 before E3)",
                             to: "receiver", at: now)
                try r.inject(unsealed(r, .credential, sequence: 1, bodyLength: 1040), origin: "a credential at sequence 1 (E3 before E4)",
                             to: "receiver", at: now)
                try r.inject(unsealed(r, .offer, sequence: 1, bodyLength: 272), origin: "an offer at sequence 1 that does not authenticate (E4)",
                             to: "receiver", at: now)
                try r.inject(unsealed(r, .abort, sequence: 7, bodyLength: 17), origin: "an abort at sequence 7 (skips E2, fails E4)",
                             to: "receiver", at: now)
                try r.inject(unsealed(r, .abort, sequence: 0, bodyLength: 17), origin: "an abort at sequence 0 (aborts are not exempt from E1)",
                             to: "receiver", at: now)
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
            },
            Scenario("sender-frame-checks-in-order", "Frames at a sender awaiting the accept, each failing exactly one step: H1 (the accepted hello), H2, E1, E2, E3, E4; then the genuine accept.") { r in
                try offer(r)
                let hello = r.handshake().helloFrame
                let now = t0 + 25
                try r.feed(hello, to: "sender", at: now, note: "H1")
                try r.inject(VectorSupport.patched(hello, 21, 1), origin: "the hello with sequence 1 (H2)", to: "sender", at: now)
                try r.inject(unsealed(r, .accept, sequence: 0, bodyLength: 17), origin: "an accept at sequence 0 (E1)", to: "sender", at: now)
                try r.inject(unsealed(r, .accept, sequence: 2, bodyLength: 17), origin: "an accept at sequence 2 (E2)", to: "sender", at: now)
                try r.inject(unsealed(r, .receipt, sequence: 1, bodyLength: 17), origin: "a receipt at sequence 1 (E3)", to: "sender", at: now)
                try r.inject(unsealed(r, .reveal, sequence: 1, bodyLength: 48), origin: "a reveal at sequence 1 (E3: not the sender's to receive)",
                             to: "sender", at: now)
                try r.inject(unsealed(r, .accept, sequence: 1, bodyLength: 17), origin: "an accept at sequence 1 that does not authenticate (E4)",
                             to: "sender", at: now)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            },
            Scenario("sender-awaiting-hello-frames", "Frames at a sender still awaiting its hello: a malformed frame, one for another transfer, and non-hello frames (unexpectedMessage, without keys); then the genuine hello.") { r in
                try r.scan(at: t0 + 10)
                let now = t0 + 10.5
                try r.inject(Array(r.handshake().helloFrame.prefix(23)), origin: "the first 23 bytes of the hello", to: "sender", at: now)
                try r.inject(unsealed(r, .abort, sequence: 1, bodyLength: 17, transferID: otherTransfer(r)), origin: "an abort for another transfer",
                             to: "sender", at: now)
                try r.inject(unsealed(r, .abort, sequence: 1, bodyLength: 17), origin: "an abort of this transfer", to: "sender", at: now)
                try r.inject(unsealed(r, .accept, sequence: 1, bodyLength: 17), origin: "an accept of this transfer", to: "sender", at: now)
                try r.inject(unsealed(r, .reveal, sequence: 0, bodyLength: 48), origin: "a reveal of this transfer", to: "sender", at: now)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
            },
            Scenario("sender-unexpected-types-by-state", "E3 at every sender state: only an abort passes while the code is shown and while the app re-authenticates.") { r in
                try hello(r)
                try r.inject(unsealed(r, .accept, sequence: 1, bodyLength: 17), origin: "an accept while the code is shown", to: "sender", at: t0 + 15)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 16)
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.inject(unsealed(r, .accept, sequence: 2, bodyLength: 17), origin: "an accept while the app re-authenticates", to: "sender", at: t0 + 35)
                try r.inject(unsealed(r, .receipt, sequence: 2, bodyLength: 17), origin: "a receipt before the credential", to: "sender", at: t0 + 35)
                try r.sender(.credential(password), at: t0 + 40)
                try r.inject(unsealed(r, .accept, sequence: 2, bodyLength: 16, note: "late"), origin: "an accept while the sender awaits the receipt",
                             to: "sender", at: t0 + 45)
            },
            Scenario("receiver-unexpected-types-by-state", "E3 at every receiver state: a frame of another type at the next sequence is unexpectedMessage, whatever its body (E3 before E4).") { r in
                try hello(r)
                try r.inject(unsealed(r, .offer, sequence: 0, bodyLength: 272), origin: "an offer at sequence 0 while awaiting the reveal", to: "receiver", at: t0 + 11.5)
                try r.inject(unsealed(r, .receipt, sequence: 0, bodyLength: 17), origin: "a receipt (the sender's to receive) at sequence 0", to: "receiver", at: t0 + 11.5)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.inject(unsealed(r, .reveal, sequence: 1, bodyLength: 48), origin: "a second reveal at sequence 1", to: "receiver", at: t0 + 13)
                try r.inject(unsealed(r, .accept, sequence: 1, bodyLength: 17), origin: "an accept (the sender's to receive) at sequence 1", to: "receiver", at: t0 + 13)
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.inject(unsealed(r, .credential, sequence: 2, bodyLength: 1040), origin: "a credential while the account is reviewed", to: "receiver", at: t0 + 22)
                try r.receiver(.accept, at: t0 + 30)
                try r.inject(unsealed(r, .offer, sequence: 2, bodyLength: 272), origin: "an offer while awaiting the credential", to: "receiver", at: t0 + 32)
                try r.inject(unsealed(r, .reveal, sequence: 2, bodyLength: 48), origin: "a reveal while awaiting the credential", to: "receiver", at: t0 + 32)
            },
        ]
    }
}
