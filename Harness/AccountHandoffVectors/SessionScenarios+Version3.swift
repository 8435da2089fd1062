import AccountHandoff

/// What version 3 adds to the flow: the sending person types the receiving screen's code
/// (Spec 4.4), declines a device can make before the password travels (store, local
/// authentication, Spec 3.6, 8.7), the new receipt statuses, and expiry told to the peer
/// (Spec 6.0 step 3).
extension SessionScenarios {
    static var typedConfirmation: [Scenario] {
        [
            Scenario("sender-types-the-code-after-slips", "The sending person types three, five and seven digits (not a code: refused, no try used), six letters and digits, the code with a tab or a no-break space in it, the code in Arabic-Indic digits (each refused), a wrong six-digit code (one try used, two left), then the receiving screen's code with its space.") { r in
                try reveal(r)
                let right = try r.senderCode()
                try r.sender(.codeTyped("861"), at: t0 + 14, note: "three digits: not an entry")
                try r.sender(.codeTyped("48291"), at: t0 + 14, note: "five digits: not an entry, no try used")
                try r.sender(.codeTyped(right.digits + "0"), at: t0 + 14, note: "seven digits: not an entry, no try used")
                try r.sender(.codeTyped("12345a"), at: t0 + 14, note: "a letter: not an entry")
                let first = String(right.digits.prefix(3)), last = String(right.digits.suffix(3))
                try r.sender(.codeTyped(first + "\t" + last), at: t0 + 14, note: "only U+0020 is removed: a tab makes it no entry")
                try r.sender(.codeTyped(first + "\u{A0}" + last), at: t0 + 14, note: "a no-break space makes it no entry")
                let arabicIndic = String(right.digits.unicodeScalars.map { Character(Unicode.Scalar($0.value - 0x30 + 0x660)!) })
                try r.sender(.codeTyped(arabicIndic), at: t0 + 14, note: "Arabic-Indic digits are not ASCII digits: no entry")
                try r.sender(.codeTyped(otherCode(right)), at: t0 + 15, note: "six digits that differ: a try is used")
                try r.sender(.codeTyped(right.grouped), at: t0 + 16, note: "the receiving screen's code, grouped as shown")
                try r.deliver(from: "sender", to: "receiver", at: t0 + 17)
            },
            Scenario("sender-types-a-wrong-code-three-times", "Three six-digit entries that differ from the receiving screen's code: the third ends the session as rejected, and the receiver learns it.") { r in
                try reveal(r)
                let wrong = otherCode(try r.senderCode())
                try r.sender(.codeTyped(wrong), at: t0 + 15)
                try r.sender(.codeTyped(wrong), at: t0 + 16)
                try r.sender(.codeTyped(wrong), at: t0 + 17, note: "the last allowed entry")
                try r.deliver(from: "sender", to: "receiver", at: t0 + 18)
            },
            Scenario("sender-code-entry-before-a-receiver", "A code typed while no receiving device has joined is refused; the person cannot confirm a device that shows no code. Outside awaitingCodeConfirmation the state is checked before the text (Spec 4.4, 6.1): a text that is no entry is refused invalidEvent there too, not malformed.typedCode.") { r in
                try r.scan(at: t0 + 10)
                try r.sender(.codeTyped("000000"), at: t0 + 10.5, note: "no hello accepted yet: refused")
                try r.sender(.codeTyped("861"), at: t0 + 10.5, note: "no entry, in awaitingHello: invalidEvent (the state first)")
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.sender(.accept, at: t0 + 12)
                try r.sender(.codeTyped("861"), at: t0 + 12.5, note: "no entry, in awaitingAccept: invalidEvent (the state first)")
            },
        ]
    }

    static var declinesBeforeTheCredential: [Scenario] {
        [
            Scenario("sender-not-authenticated", "Both people confirmed, but the sending person fails local authentication: abort(5) before the password is read.") { r in
                try accept(r)
                try r.sender(.notAuthenticated, at: t0 + 35)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 36)
            },
            Scenario("sender-store-unavailable", "Both people confirmed, but the sending device cannot read the password: abort(4).") { r in
                try accept(r)
                try r.sender(.storeUnavailable, at: t0 + 35)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 36)
            },
            Scenario("receiver-store-unavailable-before-offer", "The receiving device finds its store unusable once the code is shown: abort(4); a gate failure is refused before the offer.") { r in
                try reveal(r)
                try r.receiver(.notAuthenticated, at: t0 + 14, note: "nothing to authenticate for yet: refused")
                try r.receiver(.storeUnavailable, at: t0 + 15)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 16)
            },
            Scenario("receiver-store-unavailable-reviewing", "The import cannot be prepared when the account is offered (store locked, unwritable, full): abort(4) before the password travels.") { r in
                try offer(r)
                try r.receiver(.storeUnavailable, at: t0 + 25)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 26)
            },
            Scenario("receiver-not-authenticated", "The receiving person fails local authentication when accepting: abort(5) instead of the accept.") { r in
                try offer(r)
                try r.receiver(.notAuthenticated, at: t0 + 25)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 26)
            },
            Scenario("receiver-store-unavailable-after-accept", "The store fails after the accept left but before the credential arrived: abort(4); the credential, already sealed, ends the sender as delivered-unconfirmed.") { r in
                try accept(r)
                try r.receiver(.storeUnavailable, at: t0 + 35)
                try r.sender(.credential(password), at: t0 + 40)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 41)
            },
        ]
    }

    static var newReceipts: [Scenario] {
        [
            Scenario("happy-store-failed", "Complete transfer; the receiving device cannot store the account while importing (receipt 4).") { try complete($0, .storeFailed) },
            Scenario("happy-cancelled-while-importing", "Complete transfer; the receiving person cancels while the account is being checked (receipt 5).") { try complete($0, .cancelled) },
        ]
    }

    static var expiryTold: [Scenario] {
        [
            Scenario("expired-while-typing-tells-the-receiver", "The sender's expiry fires while its person is to type the code: it sends abort(6), and the receiver ends expired at once, long before its own expiry + skew.") { r in
                try reveal(r)
                try r.sender(.tick, at: r.expiry())
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 0.5)
            },
            Scenario("expired-awaiting-accept-tells-the-receiver", "The sender expires while the receiving person reviews the offer: abort(6) reaches the receiver.") { r in
                try offer(r)
                try r.sender(.tick, at: r.expiry())
                try r.deliver(from: "sender", to: "receiver", at: r.expiry() + 1)
            },
            Scenario("expired-receiver-tells-the-sender", "The receiver's expiry fires while it holds the session's keys: it sends abort(6), which the sender, already expired, ignores.") { r in
                try offer(r)
                try r.receiver(.tick, at: r.expiry() + 30)
                try r.sender(.tick, at: r.expiry())
                try r.deliver(from: "receiver", to: "sender", at: r.expiry() + 31)
            },
            Scenario("expired-receiver-ahead-tells-the-sender", "The receiving device's clock runs ahead and it tolerates no skew: its expiry fires while the sending person is to type the code, it sends abort(6), and the sender, whose clock has not reached the expiry yet, ends expired at once.") { r in
                try r.scan(at: t0 + 10, skew: 0)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.receiver(.tick, at: r.expiry())
                try r.deliver(from: "receiver", to: "sender", at: r.expiry() - 1, note: "the sender's clock is a second behind")
            },
            Scenario("expired-receiver-while-credential-in-flight", "The receiver (clock ahead, no skew) expires while the credential is on its way: its abort(6) reaches the sender after the credential left, which ends deliveredUnconfirmed.expired; the late credential is ignored.") { r in
                try r.scan(at: t0 + 10, skew: 0)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
                try r.sender(.accept, at: t0 + 20)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
                try r.receiver(.accept, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.credential(password), at: t0 + 40)
                let credential = r.lastSent["sender"]!
                try r.receiver(.tick, at: r.expiry())
                try r.deliver(from: "receiver", to: "sender", at: r.expiry() - 1)
                try r.feed(credential, to: "receiver", at: r.expiry() + 1)
            },
            Scenario("receiver-connection-closed-before-expiry", "Before the reveal the sender holds no keys for this receiver; the connection closes half a second before the expiry: the connection was lost (failed.transportLost).") { r in
                try r.scan(at: t0 + 10)
                try r.receiver(.transportLost, at: r.expiry() - 0.5, note: "before the expiry: the connection was lost")
            },
            Scenario("receiver-connection-closed-at-expiry", "The same close at the expiry itself: the sender stopped, its code ran out (expired), not transportLost.") { r in
                try r.scan(at: t0 + 10)
                try r.receiver(.transportLost, at: r.expiry())
            },
            Scenario("receiver-connection-closed-after-expiry-clock-back", "A tick 5 s after the expiry (before expiry + skew: nothing happens), then the connection closes with a clock that jumped back before the expiry: the session's time is the largest it was given (Spec 6.0 step 1), so the sender's code ran out: expired.") { r in
                try r.scan(at: t0 + 10)
                try r.receiver(.tick, at: r.expiry() + 5)
                try r.receiver(.transportLost, at: r.expiry() - 5, note: "processed at the latest time seen, expiry + 5")
            },
            Scenario("receiver-connection-closed-after-expiry", "The receiver reviews the account; the sender's abort(6) is lost and its connection closes 10 s after the expiry, before the receiver's own expiry + skew: expired, not transportLost.") { r in
                try offer(r)
                try r.receiver(.transportLost, at: r.expiry() + 10, note: "after the expiry, before expiry + skew")
            },
        ]
    }

    /// Another six-digit code than `code`.
    static func otherCode(_ code: ShortCode) -> String {
        let value = (code.value + 1) % 1_000_000
        let raw = String(value)
        return String(repeating: "0", count: 6 - raw.count) + raw
    }
}
