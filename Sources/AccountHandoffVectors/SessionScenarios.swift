@_spi(Vectors) import AccountHandoff

/// The scripted sessions of `sessions.json`: the happy paths and every failure path the
/// issue names. Times are offsets in seconds from ``SessionRecorder/startTime``; the sender's
/// lifetime is 180 s and the receiver's skew tolerance 30 s unless a script says otherwise.
enum SessionScenarios {
    static let t0 = Int64(SessionRecorder.startTime)
    static let password = Array("correct horse battery staple".utf8)

    typealias Script = @Sendable (SessionRecorder) throws -> Void

    static func make() throws -> JSONValue {
        var sessions: [JSONValue] = []
        for (name, summary, script) in all {
            let recorder = try SessionRecorder(name, summary)
            try script(recorder)
            sessions.append(recorder.json())
        }
        return .object([
            "description": .string("Full sessions driven through the real sender and receiver state machines (Spec 5, 6): every key, transcript hash, frame, plaintext and action. Steps are replayed in order; 'now' is Unix seconds."),
            "sessions": .array(sessions),
        ])
    }

    // MARK: Building blocks

    static func hello(_ r: SessionRecorder) throws {
        try r.scan(at: t0 + 10)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
    }

    static func offer(_ r: SessionRecorder) throws {
        try hello(r)
        try r.sender(.codeConfirmed, at: t0 + 20)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
    }

    static func accept(_ r: SessionRecorder) throws {
        try offer(r)
        try r.receiver(.codeConfirmed, at: t0 + 30)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
    }

    static func credential(_ r: SessionRecorder) throws {
        try accept(r)
        try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 40)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
    }

    static func complete(_ r: SessionRecorder, _ status: ReceiptStatus) throws {
        try credential(r)
        try r.receiver(.importFinished(status), at: t0 + 50)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
    }

    static func tampered(_ r: SessionRecorder, _ from: String, byte index: Int, to: String, at now: Int64) throws {
        let original = r.lastSent[from]!
        try r.inject(VectorSupport.flip(original, at: index), origin: "frame \(r.frameID(original)) with byte \(index) xor 0x01",
                     to: to, at: now)
    }

    // MARK: Scenarios

    static let all: [(String, String, Script)] = happy + rejections + cancels + tampering + expiry + replays + adversaries + misuse

    static let happy: [(String, String, Script)] = [
        ("happy-imported", "Complete transfer; the receiver imports and validates the account.", { try complete($0, .imported) }),
        ("happy-validation-failed", "Complete transfer; validation against the mail server fails, the receiver discards the account.",
         { try complete($0, .validationFailed) }),
        ("happy-declined", "Complete transfer; the receiving app declines to replace an existing account.", { try complete($0, .declined) }),
        ("happy-longest-password", "Complete transfer of a 1022-byte password (the maximum); an empty password is refused first.", { r in
            try accept(r)
            try r.sender(.credentialProvided(SecretBytes(copying: [])), at: t0 + 39, note: "empty password: refused, state unchanged")
            try r.sender(.credentialProvided(SecretBytes(copying: [UInt8](repeating: 0x61, count: 1023))), at: t0 + 39,
                         note: "1023 bytes: refused, state unchanged")
            try r.sender(.credentialProvided(SecretBytes(copying: VectorSupport.bytes(seed: 7, count: 1022))), at: t0 + 40)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
            try r.receiver(.importFinished(.imported), at: t0 + 50)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
        }),
    ]

    static let rejections: [(String, String, Script)] = [
        ("receiver-rejects-before-offer", "The receiving person sees different codes before any account data arrives.", { r in
            try hello(r)
            try r.receiver(.codeRejected, at: t0 + 15)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 16)
        }),
        ("receiver-rejects-offer", "The receiving person declines the shown account.", { r in
            try offer(r)
            try r.receiver(.codeRejected, at: t0 + 30)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
        }),
        ("receiver-rejects-after-accept", "The receiving person changes their mind after accepting, before the credential arrives.", { r in
            try accept(r)
            try r.receiver(.codeRejected, at: t0 + 35)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 36)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 40, note: "too late: the session is over")
        }),
        ("sender-rejects-code", "Wrong code at the sender: the sending person sees different codes and rejects.", { r in
            try hello(r)
            try r.sender(.codeRejected, at: t0 + 20)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
        }),
        ("sender-rejects-awaiting-accept", "The sending person rejects after the offer was sent.", { r in
            try offer(r)
            try r.sender(.codeRejected, at: t0 + 25)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 26)
        }),
        ("wrong-code-typed", "Wrong code at the receiver: the person types a code that does not match (Spec 4.4), the app feeds codeRejected.", { r in
            try offer(r)
            try r.receiver(.codeRejected, at: t0 + 30, note: "typed code does not match the shown code")
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
        }),
    ]

    static let cancels: [(String, String, Script)] = [
        ("sender-cancels-awaiting-hello", "The sender cancels while its QR is shown; a late hello and the receiver's expiry follow.", { r in
            try r.sender(.cancel, at: t0 + 5)
            try r.scan(at: t0 + 10)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
            try r.receiver(.tick, at: r.expiry + 30, note: "receiver: now = expiry + skew, still pending")
            try r.receiver(.tick, at: r.expiry + 31)
        }),
        ("sender-cancels-awaiting-code-confirmation", "The sender cancels while the code is shown.", { r in
            try hello(r)
            try r.sender(.cancel, at: t0 + 15)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 16)
        }),
        ("sender-cancels-awaiting-accept", "The sender cancels after sending the offer.", { r in
            try offer(r)
            try r.sender(.cancel, at: t0 + 25)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 26)
        }),
        ("sender-cancels-awaiting-credential", "The sender cancels instead of re-authenticating.", { r in
            try accept(r)
            try r.sender(.cancel, at: t0 + 35)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 36)
        }),
        ("sender-cancels-awaiting-receipt", "The sender cancels after the credential left; the receiver has it first, then gets the abort and wipes it.", { r in
            try accept(r)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 40)
            let credential = r.lastSent["sender"]!
            try r.sender(.cancel, at: t0 + 42)
            try r.inject(credential, origin: "", to: "receiver", at: t0 + 43)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 44)
        }),
        ("receiver-cancels-awaiting-offer", "The receiver cancels right after scanning.", { r in
            try hello(r)
            try r.receiver(.cancel, at: t0 + 12)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 13)
        }),
        ("receiver-cancels-reviewing-offer", "The receiver cancels while reviewing the account.", { r in
            try offer(r)
            try r.receiver(.cancel, at: t0 + 25)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 26)
        }),
        ("receiver-cancels-awaiting-credential-frame", "The receiver cancels after accepting.", { r in
            try accept(r)
            try r.receiver(.cancel, at: t0 + 35)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 36)
        }),
        ("receiver-cancels-awaiting-import-result", "The receiver cancels instead of importing; the credential buffer is wiped.", { r in
            try credential(r)
            try r.receiver(.cancel, at: t0 + 45)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 46)
        }),
        ("crossing-abort", "The sender cancels while the receiver's accept is in flight: both transcripts differ, the abort (bound to TH1) still opens.", { r in
            try offer(r)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            try r.sender(.cancel, at: t0 + 30)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 31)
        }),
        ("transport-lost-sender", "The sender's transport closes while it waits for the accept.", { r in
            try offer(r)
            try r.sender(.transportLost, at: t0 + 25)
            try r.sender(.transportLost, at: t0 + 26, note: "after the end: nothing")
        }),
        ("transport-lost-receiver", "The receiver's transport closes while it waits for the credential.", { r in
            try accept(r)
            try r.receiver(.transportLost, at: t0 + 35)
        }),
    ]

    static let tampering: [(String, String, Script)] = [
        ("tampered-hello-tag", "A relay flips a bit of the hello tag; the genuine hello then succeeds.", { r in
            try r.scan(at: t0 + 10)
            try tampered(r, "receiver", byte: 87, to: "sender", at: t0 + 11)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
        }),
        ("tampered-hello-key", "A relay flips a bit of the receiver's public key in the hello.", { r in
            try r.scan(at: t0 + 10)
            try tampered(r, "receiver", byte: 30, to: "sender", at: t0 + 11)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
        }),
        ("tampered-offer", "A relay flips a ciphertext bit of the offer; the genuine offer then succeeds and the transfer completes.", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: t0 + 20)
            try tampered(r, "sender", byte: 40, to: "receiver", at: t0 + 21)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
        }),
        ("tampered-accept", "A relay flips the accept's tag.", { r in
            try offer(r)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            try tampered(r, "receiver", byte: 39, to: "sender", at: t0 + 31)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 32)
        }),
        ("tampered-credential", "A relay flips a bit of the credential ciphertext; the genuine frame then delivers the account.", { r in
            try accept(r)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 40)
            try tampered(r, "sender", byte: 100, to: "receiver", at: t0 + 41)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 42)
            try r.receiver(.importFinished(.imported), at: t0 + 50)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
        }),
        ("tampered-receipt", "A relay flips the receipt's status byte; the sender ignores it and then gets the genuine receipt.", { r in
            try credential(r)
            try r.receiver(.importFinished(.imported), at: t0 + 50)
            try tampered(r, "receiver", byte: 24, to: "sender", at: t0 + 51)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 52)
        }),
        ("tampered-abort", "A relay flips a bit of an abort; the genuine abort then ends the session.", { r in
            try offer(r)
            try r.receiver(.cancel, at: t0 + 25)
            try tampered(r, "receiver", byte: 24, to: "sender", at: t0 + 26)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 27)
        }),
        ("tampered-headers", "Header changes: another transfer ID, a skipped sequence number, a changed type; a receipt relabelled as abort fails authentication.", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: t0 + 20)
            let offer = r.lastSent["sender"]!
            try r.inject(VectorSupport.flip(offer, at: 2), origin: "frame \(r.frameID(offer)) with transfer ID byte 0 xor 0x01", to: "receiver", at: t0 + 21)
            try r.inject(VectorSupport.flip(offer, at: 21), origin: "frame \(r.frameID(offer)) with sequence 1", to: "receiver", at: t0 + 21)
            var asAbort = offer; asAbort[1] = 6
            try r.inject(asAbort, origin: "frame \(r.frameID(offer)) with type 6 (abort)", to: "receiver", at: t0 + 21)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 40)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
            try r.receiver(.importFinished(.imported), at: t0 + 50)
            let receipt = r.lastSent["receiver"]!
            var relabelled = receipt; relabelled[1] = 6
            try r.inject(relabelled, origin: "frame \(r.frameID(receipt)) with type 6 (abort)", to: "sender", at: t0 + 51)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 52)
        }),
    ]

    static let expiry: [(String, String, Script)] = [
        ("expired-awaiting-hello", "Nobody scans: the sender is alive at expiry - 1 and expires at expiry (now >= expiry).", { r in
            try r.sender(.tick, at: r.expiry - 1)
            try r.sender(.tick, at: r.expiry)
        }),
        ("expired-at-scan", "The QR is scanned after expiry + skew.", { r in
            try r.scan(at: r.expiry + 31)
        }),
        ("expired-awaiting-code-confirmation", "The sending person confirms the code too late.", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: r.expiry)
        }),
        ("expired-awaiting-accept", "The accept reaches the sender at expiry.", { r in
            try offer(r)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            try r.deliver(from: "receiver", to: "sender", at: r.expiry)
        }),
        ("expired-awaiting-credential", "The password arrives from the app at expiry; it is wiped, nothing is sent.", { r in
            try accept(r)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: r.expiry)
        }),
        ("expired-awaiting-receipt", "The receipt reaches the sender at expiry: the receiver completed, the sender reports expired.", { r in
            try credential(r)
            try r.receiver(.importFinished(.imported), at: t0 + 50)
            try r.deliver(from: "receiver", to: "sender", at: r.expiry)
        }),
        ("expired-receiver-awaiting-offer", "The offer reaches the receiver at expiry + skew + 1.", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: r.expiry - 1)
            try r.deliver(from: "sender", to: "receiver", at: r.expiry + 31)
        }),
        ("expired-receiver-boundary", "The offer reaches the receiver exactly at expiry + skew (accepted); the person confirms one second later (expired).", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: r.expiry - 1)
            try r.deliver(from: "sender", to: "receiver", at: r.expiry + 30)
            try r.receiver(.codeConfirmed, at: r.expiry + 31)
        }),
        ("expired-receiver-awaiting-credential-frame", "The credential frame reaches the receiver after expiry + skew.", { r in
            try accept(r)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: r.expiry - 1)
            try r.deliver(from: "sender", to: "receiver", at: r.expiry + 31)
        }),
        ("expired-receiver-awaiting-import-result", "The app finishes the import after expiry + skew: no receipt is sent.", { r in
            try credential(r)
            try r.receiver(.importFinished(.imported), at: r.expiry + 31)
        }),
    ]

    static let replays: [(String, String, Script)] = [
        ("replayed-hello", "The accepted hello arrives again.", { r in
            try hello(r)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
        }),
        ("replayed-offer", "The offer arrives twice.", { r in
            try offer(r)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
        }),
        ("replayed-accept", "The accept arrives twice.", { r in
            try accept(r)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 32)
        }),
        ("replayed-credential", "The credential frame arrives twice.", { r in
            try credential(r)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 42)
        }),
        ("replayed-after-finish", "Frames replayed after a completed session; local events are refused.", { r in
            try complete(r, .imported)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 52)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 52)
            try r.sender(.cancel, at: t0 + 53)
            try r.receiver(.tick, at: t0 + 53)
        }),
        ("out-of-order", "A relay renumbers the offer to sequence 1: outOfOrder (checked before decryption), then the genuine offer is accepted.", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: t0 + 20)
            let offer = r.lastSent["sender"]!
            var renumbered = offer
            renumbered[21] = 1  // low byte of the big-endian sequence number
            try r.inject(renumbered, origin: "relay renumbered the offer", to: "receiver", at: t0 + 21)
            try r.inject(offer, origin: "", to: "receiver", at: t0 + 22)
        }),
        ("abort-overtakes-offer", "The sender cancels right after sending its offer and the abort arrives first: aborts may skip ahead, so the receiver ends cancelled.peer; the late offer is ignored.", { r in
            try hello(r)
            try r.sender(.codeConfirmed, at: t0 + 20)
            let offer = r.lastSent["sender"]!
            try r.sender(.cancel, at: t0 + 21)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 22)
            try r.inject(offer, origin: "", to: "receiver", at: t0 + 23)
        }),
        ("qr-scanned-twice", "The same device scans the QR a second time: refused by its registry.", { r in
            try r.scan(at: t0 + 10, registry: "receiving-device")
            try r.scan("receiver-again", at: t0 + 12, registry: "receiving-device")
            try r.deliver(from: "receiver", to: "sender", at: t0 + 13)
        }),
    ]

    static let adversaries: [(String, String, Script)] = [
        ("mitm-own-key", "A relay that photographed the QR answers with its own key and drops the real hello: the two short codes differ; the sending person rejects.", { r in
            try r.scan("intruder", at: t0 + 9)
            try r.scan(at: t0 + 10)
            try r.deliver(from: "intruder", to: "sender", at: t0 + 11, note: "the relay forwards its own hello, not the receiver's")
            try r.sender(.codeRejected, at: t0 + 20, note: "the sender shows the intruder's code, the receiver its own: they differ")
            try r.deliver(from: "sender", to: "intruder", at: t0 + 21)
            try r.receiver(.codeRejected, at: t0 + 20)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 22)
        }),
        ("contested-second-hello", "A second device that saw the QR sends a valid hello after the first: the sender aborts with contested.", { r in
            try offer(r)
            try r.scan("intruder", at: t0 + 22)
            try r.deliver(from: "intruder", to: "sender", at: t0 + 23)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 24)
            try r.receiver(.tick, at: r.expiry + 31, party: "intruder")
        }),
        ("low-order-hello", "A hello with the all-zero public key, and a hello with sequence 1: both ignored; the genuine hello then works.", { r in
            try r.scan(at: t0 + 10)
            let hello = r.lastSent["receiver"]!
            var zeroKey = hello
            for index in 24..<56 { zeroKey[index] = 0 }
            try r.inject(zeroKey, origin: "frame \(r.frameID(hello)) with receiver public key 0", to: "sender", at: t0 + 11)
            try r.inject(VectorSupport.flip(hello, at: 21), origin: "frame \(r.frameID(hello)) with sequence 1", to: "sender", at: t0 + 11)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 12)
        }),
        ("wrong-transfer-id-and-type", "Frames for another transfer, a hello sent to the receiver and an unexpected type are ignored.", { r in
            try hello(r)
            let hello = r.lastSent["receiver"]!
            try r.inject(VectorSupport.flip(hello, at: 17), origin: "frame \(r.frameID(hello)) with transfer ID byte 15 xor 0x01", to: "sender", at: t0 + 12)
            try r.inject(hello, origin: "", to: "receiver", at: t0 + 12, note: "a hello at the receiver")
            try r.sender(.codeConfirmed, at: t0 + 20)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            let accept = r.lastSent["receiver"]!
            try r.inject(accept, origin: "", to: "receiver", at: t0 + 31, note: "the receiver's own accept reflected back")
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
        }),
        ("authenticated-bad-abort-reason", "A key-holding sender sends an abort with reason 9: the receiver ends with failed.malformed.abortReason.", { r in
            try hello(r)
            let th1 = r.transcripts("sender").handshake
            let bad = try r.forge(by: "sender", type: .abort, sequence: 0, plaintext: [9], transcript: th1)
            try r.inject(bad, origin: "", to: "receiver", at: t0 + 15)
        }),
        ("authenticated-bad-receipt", "A key-holding receiver sends a receipt with status 0: the sender ends with failed.malformed.receiptStatus.", { r in
            try credential(r)
            let current = r.transcripts("receiver").current
            let bad = try r.forge(by: "receiver", type: .receipt, sequence: 2, plaintext: [0], transcript: current)
            try r.inject(bad, origin: "", to: "sender", at: t0 + 50)
        }),
        ("authenticated-bad-offer-padding", "A key-holding sender sends an offer with a non-zero padding byte: the receiver ends with failed.malformed.padding.", { r in
            try hello(r)
            var plaintext = VectorPrimitives.offerPlaintext(r.account)
            plaintext[plaintext.count - 1] = 1
            let bad = try r.forge(by: "sender", type: .offer, sequence: 0, plaintext: plaintext, transcript: r.transcripts("sender").current)
            try r.inject(bad, origin: "", to: "receiver", at: t0 + 21)
        }),
    ]

    static let misuse: [(String, String, Script)] = [
        ("local-misuse", "Local events in the wrong state are refused (invalidEvent) and change nothing; the transfer then completes.", { r in
            try r.sender(.codeConfirmed, at: t0 + 5)
            try r.sender(.codeRejected, at: t0 + 5)
            try r.scan(at: t0 + 10)
            try r.receiver(.codeConfirmed, at: t0 + 10)
            try r.receiver(.importFinished(.imported), at: t0 + 10)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 12)
            try r.sender(.codeConfirmed, at: t0 + 20)
            try r.sender(.codeConfirmed, at: t0 + 20)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
            try r.receiver(.codeConfirmed, at: t0 + 30)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
            try r.sender(.tick, at: t0 + 35)
            try r.sender(.credentialProvided(SecretBytes(copying: password)), at: t0 + 40)
            try r.sender(.codeRejected, at: t0 + 41)
            try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
            try r.receiver(.codeRejected, at: t0 + 45)
            try r.receiver(.importFinished(.declined), at: t0 + 50)
            try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
            try r.receiver(.cancel, at: t0 + 52)
        }),
    ]
}
