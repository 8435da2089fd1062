import AccountHandoff
import AccountHandoffTestSupport

/// Men in the middle, second devices, low-order keys, and key-holding peers that send
/// authenticated but invalid plaintexts (Spec 5, 6.1, 6.2, 6.6, 8.2).
extension SessionScenarios {
    static var adversaries: [Scenario] {
        [
            Scenario("mitm-own-key", "A relay that photographed the QR answers with its own key and drops the real hello: the two short codes differ; the sending person, with no code on the receiving screen to type, rejects, and the receiver gives up.") { r in
                try r.scan("intruder", at: t0 + 9)
                try r.scan(at: t0 + 10)
                try r.deliver(from: "intruder", to: "sender", at: t0 + 11, note: "the relay forwards its own hello, not the receiver's")
                try r.deliver(from: "sender", to: "intruder", at: t0 + 12)
                try r.sender(.reject, at: t0 + 20, note: "the sender holds the intruder's code and asks for one; the receiving screen shows none, so its person rejects")
                try r.deliver(from: "sender", to: "intruder", at: t0 + 21)
                try r.receiver(.cancel, at: t0 + 22, note: "the receiver never got a reveal")
            },
            Scenario("mitm-two-sessions", "A man in the middle runs two sessions: as receiver (mitm-receiver) towards the sender S, and as sender (mitm-sender) towards the receiver R, who scanned its QR. Both codes are fixed by values the attacker cannot choose after seeing the other code: they differ, and both people reject.") { r in
                try r.addSender("mitm-sender")
                try r.scan("receiver", of: "mitm-sender", at: t0 + 10)
                try r.deliver(from: "receiver", to: "mitm-sender", at: t0 + 11, note: "M learns R's code")
                try r.deliver(from: "mitm-sender", to: "receiver", at: t0 + 12)
                try r.scan("mitm-receiver", of: "sender", at: t0 + 13)
                try r.deliver(from: "mitm-receiver", to: "sender", at: t0 + 14, note: "M's hello to S, chosen after it knew R's code")
                try r.deliver(from: "sender", to: "mitm-receiver", at: t0 + 15)
                try r.sender(.reject, at: t0 + 20, note: "S's code differs from R's")
                try r.receiver(.reject, at: t0 + 20)
            },
            Scenario("low-order-hello", "Hellos with small-order keys (H3), with sequence 1 (H2, before H3) and with a bad tag are ignored; the genuine hello then works.") { r in
                try r.scan(at: t0 + 10)
                let hello = r.lastSent["receiver"]!
                let id = r.frameID(hello)
                var zeroKey = hello
                for index in 24..<56 { zeroKey[index] = 0 }
                try r.inject(zeroKey, origin: "frame \(id) with receiver public key 0", to: "sender", at: t0 + 11)
                var orderEight = hello
                orderEight.replaceSubrange(24..<56, with: VectorSupport.hex(PrimitiveVectors.lowOrderPoints[2].1))
                try r.inject(orderEight, origin: "frame \(id) with a receiver public key of order 8", to: "sender", at: t0 + 11)
                try r.inject(VectorSupport.patched(zeroKey, 21, 1), origin: "frame \(id) with key 0 and sequence 1", to: "sender", at: t0 + 11)
                try r.inject(VectorSupport.patched(hello, 21, 1), origin: "frame \(id) with sequence 1", to: "sender", at: t0 + 11)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
            },
            Scenario("wrong-transfer-id-and-type", "Frames for another transfer, a hello at the receiver (with and without the right transfer ID) and the receiver's own accept reflected back are ignored.") { r in
                try hello(r)
                let hello = r.lastSent["receiver"]!
                try r.inject(VectorSupport.flip(hello, at: 17), origin: "frame \(r.frameID(hello)) with transfer ID byte 15 xor 0x01", to: "sender", at: t0 + 12)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.inject(VectorSupport.flip(hello, at: 17), origin: "", to: "receiver", at: t0 + 12,
                             note: "a hello for another transfer at the receiver: unknownTransfer before unexpectedMessage")
                try r.feed(hello, to: "receiver", at: t0 + 12, note: "a hello at the receiver")
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.accept, at: t0 + 30)
                let accept = r.lastSent["receiver"]!
                try r.feed(accept, to: "receiver", at: t0 + 31, note: "the receiver's own accept reflected back")
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            },
        ]
    }

    static var contested: [Scenario] {
        [
            Scenario("contested-awaiting-code-confirmation", "A second device that saw the QR sends a valid hello while the code is shown: the sender aborts towards both (contested).") { r in
                try reveal(r)
                try r.scan("intruder", at: t0 + 13)
                try r.deliver(from: "intruder", to: "sender", at: t0 + 14)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 15)
                try r.deliverReply(to: "intruder", at: t0 + 15)
            },
            Scenario("contested-second-hello", "A second device that saw the QR sends a valid hello after the offer: the sender aborts with contested towards both devices.") { r in
                try offer(r)
                try r.scan("intruder", at: t0 + 22)
                try r.deliver(from: "intruder", to: "sender", at: t0 + 23)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 24)
                try r.deliverReply(to: "intruder", at: t0 + 24)
            },
            Scenario("contested-awaiting-credential", "The second valid hello arrives while the app re-authenticates: contested towards both.") { r in
                try accept(r)
                try r.scan("intruder", at: t0 + 32)
                try r.deliver(from: "intruder", to: "sender", at: t0 + 33)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 34)
                try r.deliverReply(to: "intruder", at: t0 + 34)
            },
            Scenario("contested-after-delivery", "A second valid hello after the credential left: the sender answers that device with abort(3), warns its person (anotherDeviceJoined) and goes on; the transfer completes. The accepted hello again and a tampered hello are ignored first (H1, H4); the answered hello again is ignored too (H1).") { r in
                try credential(r)
                try r.feed(r.handshake().helloFrame, to: "sender", at: t0 + 41.5, note: "the accepted hello: H1")
                try r.scan("intruder", at: t0 + 42)
                try tampered(r, "intruder", byte: 80, to: "sender", at: t0 + 42.5)
                try r.deliver(from: "intruder", to: "sender", at: t0 + 43)
                try r.deliverReply(to: "intruder", at: t0 + 44)
                try r.feed(r.handshake("intruder").helloFrame, to: "sender", at: t0 + 44.5,
                           note: "the intruder's hello again: already answered, ignored as replayed (H1)")
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
            Scenario("contested-after-delivery-remembers-eight", "Nine second devices send valid hellos after the credential left; each is answered with abort(3). The sender remembers the last 8 it answered (Spec 5.1 H1): the second device's hello again is ignored as replayed, the first device's, no longer remembered, is answered again and so remembered again as the most recent (its third copy is replayed), which pushes the second device's out (answered again).") { r in
                try credential(r)
                for index in 1...9 {
                    let time = t0 + 41 + Double(index) / 2
                    try r.scan("intruder-\(index)", at: time)
                    try r.deliver(from: "intruder-\(index)", to: "sender", at: time + 0.25)
                }
                try r.feed(r.handshake("intruder-2").helloFrame, to: "sender", at: t0 + 46,
                           note: "answered eight hellos ago: still remembered, replayed (H1)")
                try r.feed(r.handshake("intruder-1").helloFrame, to: "sender", at: t0 + 46.5,
                           note: "answered nine hellos ago: forgotten, so it passes H1 and is answered again")
                try r.feed(r.handshake("intruder-1").helloFrame, to: "sender", at: t0 + 47,
                           note: "answered again just now: remembered again, replayed (H1)")
                try r.feed(r.handshake("intruder-2").helloFrame, to: "sender", at: t0 + 47.5,
                           note: "the oldest of the eight once the first device's was answered again: forgotten, answered again")
                try r.receiver(.importFinished(.imported), at: t0 + 50)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            },
        ]
    }

    static var authenticatedInvalid: [Scenario] {
        [
            Scenario("reveal-wrong-nonce", "A reveal sealed with the session's real keys (sequence 0, T = TH1) but holding a nonce that does not open the commitment: failed.commitmentMismatch, no frame sent; the genuine reveal then arrives after the end.") { r in
                try hello(r)
                let pair = r.handshake()
                let wrong = VectorSupport.flip(r.senders["sender"]!.nonce, at: 31)
                let forged = try r.scriptSeal(pair, senderToReceiver: true, type: .reveal, sequence: 0, plaintext: wrong, transcript: pair.th1,
                                              origin: "sealed by the script with the pair's s2r key: the nonce with its last bit flipped")
                let genuine = r.lastSent["sender"]!
                try r.feed(forged, to: "receiver", at: t0 + 12)
                try r.feed(genuine, to: "receiver", at: t0 + 13)
            },
            Scenario("authenticated-bad-abort-reason", "A key-holding sender sends an abort with reason 9 before its reveal arrives: the receiver ends with failed.malformed.abortReason.") { r in
                try hello(r)
                try r.forge(by: "sender", .abort, plaintext: [9], linkID: nil, at: t0 + 14)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 15)
            },
            Scenario("authenticated-bad-abort-reason-at-sender", "A key-holding receiver sends an abort with reason 0: the sender ends with failed.malformed.abortReason.") { r in
                try offer(r)
                try r.forge(by: "receiver", .abort, plaintext: [0], linkID: nil, at: t0 + 24)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 25)
            },
            Scenario("authenticated-contested-at-sender", "A key-holding receiver sends abort(3) (no honest receiver does): the sender ends contested.") { r in
                try offer(r)
                try r.forge(by: "receiver", .abort, plaintext: [3], linkID: nil, at: t0 + 24)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 25)
            },
            Scenario("authenticated-contested-after-delivery", "A key-holding receiver sends abort(3) after the credential left: deliveredUnconfirmed.contested.") { r in
                try credential(r)
                try r.forge(by: "receiver", .abort, plaintext: [3], linkID: nil, at: t0 + 44)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 45)
            },
            Scenario("authenticated-contested-awaiting-code-confirmation", "A key-holding receiver sends abort(3) while the sender's code is shown: contested.") { r in
                try reveal(r)
                try r.forge(by: "receiver", .abort, plaintext: [3], linkID: nil, at: t0 + 14)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 15)
            },
            Scenario("authenticated-bad-abort-reason-awaiting-code-confirmation", "A key-holding receiver sends an abort with reason 7 (the first undefined value; it meant secureMemoryUnavailable until version 4, Spec 10) while the sender waits for the typed code: failed.malformed.abortReason.") { r in
                try reveal(r)
                try r.forge(by: "receiver", .abort, plaintext: [7], linkID: nil, at: t0 + 14)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 15)
            },
            Scenario("authenticated-contested-awaiting-credential", "A key-holding receiver sends abort(3) while the sender's app re-authenticates: contested.") { r in
                try accept(r)
                try r.forge(by: "receiver", .abort, plaintext: [3], linkID: nil, at: t0 + 34)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 35)
            },
            Scenario("authenticated-bad-abort-reason-awaiting-offer", "A key-holding sender sends an abort with reason 7 while the receiver's code is shown: failed.malformed.abortReason.") { r in
                try reveal(r)
                try r.forge(by: "sender", .abort, plaintext: [7], linkID: nil, at: t0 + 14)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 15)
            },
            Scenario("authenticated-bad-abort-reason-awaiting-credential", "A key-holding receiver sends an abort with reason 7 while the sender's app re-authenticates: failed.malformed.abortReason.") { r in
                try accept(r)
                try r.forge(by: "receiver", .abort, plaintext: [7], linkID: nil, at: t0 + 34)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 35)
            },
            Scenario("authenticated-bad-abort-reason-reviewing-offer", "A key-holding sender sends an abort with reason 0 while the account is reviewed: failed.malformed.abortReason.") { r in
                try offer(r)
                try r.forge(by: "sender", .abort, plaintext: [0], linkID: nil, at: t0 + 24)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 25)
            },
            Scenario("authenticated-bad-abort-reason-awaiting-credential-frame", "A key-holding sender sends an abort with reason 255 while the receiver awaits the credential: failed.malformed.abortReason.") { r in
                try accept(r)
                try r.forge(by: "sender", .abort, plaintext: [255], linkID: nil, at: t0 + 34)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 35)
            },
            Scenario("authenticated-not-authenticated-after-delivery", "A key-holding receiver sends abort(5) after the credential left (no honest receiver does: its gate runs before the accept): deliveredUnconfirmed.notAuthenticated.peer.") { r in
                try credential(r)
                try r.forge(by: "receiver", .abort, plaintext: [5], linkID: nil, at: t0 + 44)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 45)
            },
            Scenario("authenticated-bad-abort-reason-after-delivery", "A key-holding receiver sends an abort with reason 7 after the credential left: deliveredUnconfirmed.failed.malformed.abortReason.") { r in
                try credential(r)
                try r.forge(by: "receiver", .abort, plaintext: [7], linkID: nil, at: t0 + 44)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 45)
            },
            Scenario("authenticated-bad-receipt", "A key-holding receiver sends a receipt with status 0: the sender ends with deliveredUnconfirmed.failed.malformed.receiptStatus.") { r in
                try credential(r)
                try r.forge(by: "receiver", .receipt, plaintext: [0], linkID: r.account().linkID, at: t0 + 49)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 50)
            },
            Scenario("authenticated-bad-receipt-status-6", "A key-holding receiver sends a receipt with status 6 (the first undefined value): deliveredUnconfirmed.failed.malformed.receiptStatus.") { r in
                try credential(r)
                try r.forge(by: "receiver", .receipt, plaintext: [6], linkID: r.account().linkID, at: t0 + 49)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 50)
            },
            Scenario("authenticated-bad-offer-padding", "A key-holding sender sends an offer with a non-zero padding byte: the receiver ends with failed.malformed.padding.") { r in
                try reveal(r)
                var plaintext = VectorPrimitives.offerPlaintext(r.account())
                plaintext[plaintext.count - 1] = 1
                try forgedOffer(r, plaintext)
            },
            Scenario("authenticated-bad-offer-display-name", "A key-holding sender offers a display name with U+202E: failed.malformed.displayName.") { r in
                try reveal(r)
                try forgedOffer(r, InvalidOfferVectors.pad(InvalidOfferVectors.record(name: Array("Ada \u{202E}gro.elpmaxe".utf8))))
            },
            Scenario("authenticated-bad-offer-port-zero", "A key-holding sender offers port 0: failed.malformed.imapPort.") { r in
                try reveal(r)
                try forgedOffer(r, InvalidOfferVectors.pad(InvalidOfferVectors.record(port: [0, 0])))
            },
            Scenario("authenticated-bad-offer-trailing-bytes", "A key-holding sender's offer record has a byte after the security byte: failed.malformed.trailingBytes.") { r in
                try reveal(r)
                try forgedOffer(r, InvalidOfferVectors.pad(InvalidOfferVectors.record() + [0]))
            },
            Scenario("authenticated-bad-credential-length", "A key-holding sender's credential has length prefix 0: failed.malformed.credential.") { r in
                try accept(r)
                var plaintext = [UInt8](repeating: 0, count: 1024)
                plaintext[2] = 0x61
                try r.forge(by: "sender", .credential, plaintext: plaintext, linkID: r.account().linkID, at: t0 + 39)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 40)
            },
            Scenario("authenticated-bad-credential-padding", "A key-holding sender's credential has a non-zero padding byte: failed.malformed.padding.") { r in
                try accept(r)
                var plaintext = try VectorPrimitives.credentialPlaintext(password)
                plaintext[1023] = 1
                try r.forge(by: "sender", .credential, plaintext: plaintext, linkID: r.account().linkID, at: t0 + 39)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 40)
            },
            Scenario("authenticated-wrong-link-id", "A key-holding sender seals its credential binding another account link ID: the receiver's AD differs, authenticationFailed.") { r in
                try accept(r)
                let other = AccountLinkID(bytes: VectorSupport.flip(r.account().linkID.bytes, at: 0))!
                try r.forge(by: "sender", .credential, plaintext: try VectorPrimitives.credentialPlaintext(password), linkID: other, at: t0 + 39)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 40)
            },
            Scenario("authenticated-unexpected-offer-while-reviewing", "A key-holding sender sends a second offer while the receiver reviews the first: unexpectedMessage (E3).") { r in
                try offer(r)
                try forgedOffer(r, VectorPrimitives.offerPlaintext(r.account()))
            },
        ]
    }

    /// The sender seals `plaintext` as an offer and it reaches the receiver.
    static func forgedOffer(_ r: SessionRecorder, _ plaintext: [UInt8]) throws {
        try r.forge(by: "sender", .offer, plaintext: plaintext, linkID: nil, at: t0 + 20)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
    }
}
