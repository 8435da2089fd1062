import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// What the recorder needs of a pair whose keys seal a session's AEAD frames: a QR
/// ``Handshake`` or a ``TypedHandshake``.
protocol SessionPair {
    var index: Int { get }
    var sender: String { get }
    var receiver: String { get }
    /// The `TH1` that aborts bind (Spec 4.3, 4.5).
    var th1: [UInt8] { get }
    /// The `T` of the first AEAD frame a party seals in the step that gave it its keys: the
    /// QR sender's reveal (`TH1`), the typed sender's offer (`TH2`, Spec 4.5).
    var firstSealTranscript: [UInt8] { get }
    /// The frame record's field that names the pair (`handshake` or `typedHandshake`).
    var recordField: String { get }
    func key(senderToReceiver: Bool) -> [UInt8]
    func additionalData(header: [UInt8], type: MessageType, transcript: [UInt8], boundLinkID: [UInt8]?) -> [UInt8]
}

extension Handshake: SessionPair {
    var firstSealTranscript: [UInt8] { th1 }
    var recordField: String { "handshake" }
}

/// The sending device's side of one typed run (Spec 6.8 `typedRunRequested`, 12.6, 12.7),
/// derived by the generator from the sender's seed stream and the Spec's formulas.
struct TypedRunRecord {
    let index: Int
    let sender: String
    let route: TypedRoute
    /// The code the sender showed when the run started (its digits).
    let code: String
    let transferID: TransferID
    let expiry: UInt32
    let sid: [UInt8]
    let ya: [UInt8]
    let ci: [UInt8]
    let generator: [UInt8]
    let share: [UInt8]
    let pakeInit: [UInt8]

    init(index: Int, sender: SenderParty, code: String, route: TypedRoute, sid: [UInt8], ya: [UInt8]) throws {
        self.index = index
        self.sender = sender.name
        self.route = route
        self.code = code
        self.sid = sid
        self.ya = ya
        transferID = sender.payload.transferID
        expiry = sender.payload.expiry
        ci = try TypedHandshake.channelIdentifier(code: code, expiry: expiry, route: route, transferID: transferID)
        generator = try VectorPrimitives.cpaceGenerator(password: TypedHandshake.password(code), channelIdentifier: ci, sessionID: sid)
        share = try VectorPrimitives.cpaceScalarMult(scalar: ya, element: generator)
        pakeInit = VectorPrimitives.frameBytes(type: .pakeInit, transferID: transferID, sequence: 0,
                                               body: VectorSupport.bigEndian(expiry) + sid + share)
    }

    func json(pakeInitID: Int) -> JSONValue {
        .object(["sender": .string(sender), "route": .string(route.description), "code": .string(code), "sid": .hex(sid),
                 "ya": .hex(ya), "ci": .hex(ci), "generator": .hex(generator), "Ya": .hex(share), "pakeInit": .number(pakeInitID)])
    }
}

/// A receiving device's answer to a run's `pakeInit` (Spec 6.8, 12.6, 12.7, 4.5): every value of
/// its side, and what the run's sender derives from its `pakeReply` (the same keys only when
/// both hold the same code and route).
struct TypedHandshake: SessionPair {
    let index: Int
    let run: TypedRunRecord
    let receiver: String
    let route: TypedRoute
    /// The code the receiving person typed (its digits).
    let code: String
    let linkID: [UInt8]
    let ci: [UInt8]
    let yb: [UInt8]
    let generator: [UInt8]
    let share: [UInt8]
    let receiverK: [UInt8]
    let transcript: [UInt8]
    let receiverISK: [UInt8]
    let th0t: [UInt8]
    let hht: [UInt8]
    let prk: [UInt8]
    let receiverConfirmKey: [UInt8]
    let senderConfirmKey: [UInt8]
    let s2rKey: [UInt8]
    let r2sKey: [UInt8]
    let tagR: [UInt8]
    let pakeReply: [UInt8]
    let th1: [UInt8]
    let senderK: [UInt8]
    let senderISK: [UInt8]
    let senderAcceptsTagR: Bool
    /// With `senderAcceptsTagR`: `tagS`, the `pakeConfirm` and `TH2`.
    let tagS: [UInt8]?
    let pakeConfirm: [UInt8]?
    let th2: [UInt8]?

    var sender: String { run.sender }
    var firstSealTranscript: [UInt8] { th2 ?? th1 }
    var recordField: String { "typedHandshake" }

    init(index: Int, run: TypedRunRecord, receiver: String, code: String, route: TypedRoute, yb: [UInt8], linkID: [UInt8]) throws {
        self.index = index
        self.run = run
        self.receiver = receiver
        self.code = code
        self.route = route
        self.yb = yb
        self.linkID = linkID
        ci = try Self.channelIdentifier(code: code, expiry: run.expiry, route: route, transferID: run.transferID)
        generator = try VectorPrimitives.cpaceGenerator(password: Self.password(code), channelIdentifier: ci, sessionID: run.sid)
        share = try VectorPrimitives.cpaceScalarMult(scalar: yb, element: generator)
        receiverK = try VectorPrimitives.cpaceSharedPoint(scalar: yb, share: run.share)
        guard let transcript = VectorPrimitives.cpaceInitiatorResponderTranscript(ya: run.share, ada: [], yb: share, adb: []) else {
            throw VectorGenerationError("typed handshake \(index): transcript")
        }
        self.transcript = transcript
        receiverISK = try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: run.sid, k: receiverK, transcript: transcript)
        th0t = VectorPrimitives.sha256([VectorSupport.ascii("AH4 typed transcript"), run.pakeInit])
        hht = VectorPrimitives.sha256([th0t, share])
        let receiverKeys = try Self.keys(isk: receiverISK, hht: hht)
        (prk, receiverConfirmKey, senderConfirmKey, s2rKey, r2sKey) = receiverKeys
        tagR = VectorPrimitives.hmac(key: receiverConfirmKey, message: hht)
        pakeReply = VectorPrimitives.frameBytes(type: .pakeReply, transferID: run.transferID, sequence: 0, body: run.sid + share + tagR)
        th1 = VectorPrimitives.sha256([th0t, pakeReply])
        senderK = try VectorPrimitives.cpaceSharedPoint(scalar: run.ya, share: share)
        senderISK = try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: run.sid, k: senderK, transcript: transcript)
        let senderKeys = try Self.keys(isk: senderISK, hht: hht)
        senderAcceptsTagR = VectorPrimitives.hmac(key: senderKeys.receiverConfirm, message: hht) == tagR
        if senderAcceptsTagR {
            let tag = VectorPrimitives.hmac(key: senderKeys.senderConfirm, message: th1)
            let confirm = VectorPrimitives.frameBytes(type: .pakeConfirm, transferID: run.transferID, sequence: 1, body: tag)
            (tagS, pakeConfirm, th2) = (tag, confirm, VectorPrimitives.sha256([th1, confirm]))
        } else {
            (tagS, pakeConfirm, th2) = (nil, nil, nil)
        }
    }

    /// `CI` of Spec 12.7 from a device's own view.
    static func channelIdentifier(code: String, expiry: UInt32, route: TypedRoute, transferID: TransferID) throws -> [UInt8] {
        guard let nameplate = TypedCode.Nameplate(digits: String(code.prefix(3))) else { throw VectorGenerationError("nameplate of \(code)") }
        return TypedChannelIdentifier.encode(nameplate: nameplate, expiry: expiry, route: route, transferID: transferID)
    }

    /// `PRS` of Spec 12.7: the 7 ASCII digits of the secret.
    static func password(_ code: String) -> [UInt8] { Array(code.utf8.dropFirst(3).prefix(7)) }

    /// The four keys of Spec 4.5 from an `ISK`.
    static func keys(isk: [UInt8], hht: [UInt8]) throws
        -> (prk: [UInt8], receiverConfirm: [UInt8], senderConfirm: [UInt8], s2r: [UInt8], r2s: [UInt8]) {
        let prk = VectorPrimitives.hkdfExtract(salt: hht, inputKeyMaterial: [isk])
        func expand(_ label: String) throws -> [UInt8] {
            try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii(label), length: 32)
        }
        return (prk, try expand("AH4 typed receiver confirm"), try expand("AH4 typed sender confirm"), try expand("AH4 typed s2r"),
                try expand("AH4 typed r2s"))
    }

    func key(senderToReceiver: Bool) -> [UInt8] { senderToReceiver ? s2rKey : r2sKey }

    /// The additional data of Spec 4.3, its `expiry` the `pakeInit`'s (4.5).
    func additionalData(header: [UInt8], type: MessageType, transcript: [UInt8], boundLinkID: [UInt8]?) -> [UInt8] {
        header + VectorSupport.bigEndian(run.expiry) + transcript
            + ([.accept, .credential, .receipt].contains(type) ? boundLinkID ?? linkID : [])
    }

    func json(pakeReplyID: Int, pakeConfirmID: Int?) -> JSONValue {
        var fields: [String: JSONValue] = [
            "typedRun": .number(run.index), "receiver": .string(receiver), "route": .string(route.description), "code": .string(code),
            "ci": .hex(ci), "yb": .hex(yb), "generator": .hex(generator), "Yb": .hex(share), "receiverK": .hex(receiverK),
            "transcript": .hex(transcript), "receiverISK": .hex(receiverISK), "th0t": .hex(th0t), "hht": .hex(hht), "prk": .hex(prk),
            "receiverConfirmKey": .hex(receiverConfirmKey), "senderConfirmKey": .hex(senderConfirmKey), "s2rKey": .hex(s2rKey),
            "r2sKey": .hex(r2sKey), "tagR": .hex(tagR), "pakeReply": .number(pakeReplyID), "th1": .hex(th1), "senderK": .hex(senderK),
            "senderISK": .hex(senderISK), "senderAcceptsTagR": .bool(senderAcceptsTagR),
        ]
        if let tagS, let th2 {
            fields["tagS"] = .hex(tagS)
            fields["th2"] = .hex(th2)
            if let pakeConfirmID { fields["pakeConfirm"] = .number(pakeConfirmID) }
        }
        return .object(fields)
    }
}
