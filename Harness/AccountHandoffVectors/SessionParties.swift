import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// One sending party of a scripted session: a real ``HandoffSender`` and what it drew.
final class SenderParty {
    let name: String
    let seed: UInt64
    let start: Double
    let lifetime: UInt32
    let account: AccountMetadata
    let rendezvous: [UInt8]
    /// Whether this device asks its person before the password is read; the offer declares it
    /// (`senderGate`, Spec 3.4).
    let localGate: GateDeclaration
    let session: HandoffSender
    /// What the seed's stream gives (Spec 2.1): the nonce, then the private key.
    let nonce: [UInt8]
    let privateKey: [UInt8]
    /// The routes of the typed way it offers (Spec 6.8); empty for the QR way alone.
    let typedRoutes: Set<TypedRoute>
    /// The seed's stream past the nonce and the private key: the generator draws the typed
    /// way's codes, `sid`s and scalars from it in the order of Spec 6.8, 12.3 and 12.6, and
    /// checks that the session drew the same.
    private let typedStream: InsecureDeterministicRandom

    init(name: String, scenario: String, start: Double, lifetime: UInt32, rendezvousLength: Int, localGate: GateDeclaration,
         typedRoutes: Set<TypedRoute> = []) throws {
        self.name = name
        self.start = start
        self.lifetime = lifetime
        self.localGate = localGate
        self.typedRoutes = typedRoutes
        seed = VectorSupport.seed(scenario + "/" + name)
        account = try VectorSupport.standardAccount(scenario + "/" + name)
        rendezvous = VectorSupport.bytes(seed: VectorSupport.seed(scenario + "/" + name + "/rendezvous"), count: rendezvousLength)
        session = try HandoffSender.start(account: account, rendezvous: RendezvousToken(bytes: rendezvous),
                                          configuration: SenderConfiguration(lifetime: lifetime),
                                          random: InsecureDeterministicRandom(seed: seed), now: VectorSupport.date(start),
                                          typedRoutes: typedRoutes, localGate: localGate)
        (nonce, privateKey) = VectorSupport.senderDraws(seed: seed)
        typedStream = InsecureDeterministicRandom(seed: seed)
        _ = VectorSupport.draw(32, from: typedStream)  // the nonce
        _ = VectorSupport.draw(32, from: typedStream)  // the private key
        let payload = session.payload
        guard VectorPrimitives.commitment(nonce: nonce) == payload.commitment,
              try VectorPrimitives.x25519PublicKey(privateKey: privateKey) == payload.senderPublicKey.bytes,
              payload.expiry == UInt32(start.rounded(.down)) + lifetime else {
            throw VectorGenerationError("\(scenario): \(name)'s QR is not what its seed and start give (Spec 2.1, 6.1)")
        }
        if !typedRoutes.isEmpty {
            let first = try drawTypedCode()
            guard session.typedCode?.digits == first else { throw VectorGenerationError("\(scenario): \(name)'s typed code (Spec 6.8)") }
            firstTypedCode = first
        }
    }

    /// The first typed code, drawn after the QR's values (Spec 6.8).
    private(set) var firstTypedCode: String?

    /// The next typed code of the stream (Spec 12.3): what a retired or replaced code gives way to.
    func drawTypedCode() throws -> String {
        let code = try TypedCode.draw(from: typedStream)
        defer { code.wipe() }
        return code.digits
    }

    /// The next run's draws (Spec 6.8 `typedRunRequested`): `sid`, then the scalar `ya` (12.6).
    func drawTypedRun() throws -> (sid: [UInt8], ya: [UInt8]) {
        let sid = VectorSupport.draw(16, from: typedStream)
        return (sid, try VectorPrimitives.cpaceSampleScalar(from: typedStream))
    }

    var payload: SessionPayload { session.payload }

    /// The `qrs` entry (Vectors/README.md).
    func qrJSON() throws -> JSONValue {
        let (transferID, th0) = try PayloadVectors.derived(payload)
        return .object([
            "nonce": .hex(nonce), "commitment": .hex(payload.commitment), "senderPrivateKey": .hex(privateKey),
            "senderPublicKey": .hex(payload.senderPublicKey.bytes), "expiry": .number(payload.expiry),
            "binary": .hex(payload.binary), "text": .string(payload.text), "transferID": .hex(transferID), "th0": .hex(th0),
        ].merging(firstTypedCode.map { ["typedCode": .string($0)] } ?? [:]) { first, _ in first })
    }

    /// The `setup.senders` entry.
    var setupJSON: JSONValue {
        var fields: [String: JSONValue] = ["seed": .number(seed), "start": .time(start), "lifetime": .number(lifetime),
                                           "account": VectorSupport.account(account), "rendezvous": .hex(rendezvous),
                                           "localGate": .number(localGate.rawValue)]
        if !typedRoutes.isEmpty { fields["typedRoutes"] = .array(typedRoutes.sorted { $0.rawValue < $1.rawValue }.map { .string($0.description) }) }
        return .object(fields)
    }
}

/// One receiving party: its setup and, once it scanned, its real ``HandoffReceiver``.
final class ReceiverParty {
    let name: String
    let seed: UInt64
    let skew: UInt32
    /// The sender whose QR it scans; `nil` for a party that types a code (Spec 6.8).
    let scans: String?
    let registry: String?
    /// Whether this device asks its person before accepting; the accept declares it
    /// (`receiverGate`, Spec 3.6).
    let localGate: GateDeclaration
    var session: HandoffReceiver?
    /// A typed party's code (its digits) and route, once it started (Spec 6.8 `startTyped`).
    var typed: (digits: String, route: TypedRoute)?
    /// A typed party's stream: it draws its scalar `yb` when a `pakeInit` arrives (Spec 6.8).
    let typedStream: InsecureDeterministicRandom

    init(name: String, scenario: String, skew: UInt32, scans: String?, registry: String?, localGate: GateDeclaration) {
        self.name = name
        self.skew = skew
        self.localGate = localGate
        self.scans = scans
        self.registry = registry
        seed = VectorSupport.seed(scenario + "/" + name)
        typedStream = InsecureDeterministicRandom(seed: seed)
    }

    /// The `setup.receivers` entry.
    var setupJSON: JSONValue {
        var fields: [String: JSONValue] = ["seed": .number(seed), "skew": .number(skew), "localGate": .number(localGate.rawValue)]
        if let scans { fields["scans"] = .string(scans) }
        if let registry { fields["registry"] = .string(registry) }
        return .object(fields)
    }
}

/// Every value of one sender-receiver pair, derived by the generator from the Spec's formulas
/// (Spec 4.1, 4.2, 4.4, 5.1) with ``VectorPrimitives``, never read out of a session.
struct Handshake {
    let index: Int
    let sender: String
    let receiver: String
    let transferID: TransferID
    let expiry: UInt32
    let linkID: [UInt8]
    let receiverPrivateKey: [UInt8]
    let receiverPublicKey: [UInt8]
    let hh: [UInt8]
    let sharedSecret: [UInt8]
    let prk: [UInt8]
    let helloKey: [UInt8]
    let s2rKey: [UInt8]
    let r2sKey: [UInt8]
    let codeKey: [UInt8]
    let helloTag: [UInt8]
    let helloFrame: [UInt8]
    let th1: [UInt8]
    let codePRK: [UInt8]
    let codeMaterial: [UInt8]
    let codeIndex: Int
    let code: ShortCode

    init(index: Int, sender: SenderParty, receiver: ReceiverParty) throws {
        self.index = index
        self.sender = sender.name
        self.receiver = receiver.name
        let payload = sender.payload
        transferID = payload.transferID
        expiry = payload.expiry
        linkID = sender.account.linkID.bytes
        let th0 = try PayloadVectors.derived(payload).th0
        receiverPrivateKey = VectorSupport.receiverPrivateKey(seed: receiver.seed)
        receiverPublicKey = try VectorPrimitives.x25519PublicKey(privateKey: receiverPrivateKey)
        hh = VectorPrimitives.sha256([th0, receiverPublicKey])
        sharedSecret = try VectorPrimitives.x25519(privateKey: receiverPrivateKey, peer: payload.senderPublicKey.bytes)
        guard try VectorPrimitives.x25519(privateKey: sender.privateKey, peer: receiverPublicKey) == sharedSecret else {
            throw VectorGenerationError("\(sender.name) and \(receiver.name) disagree on the shared secret")
        }
        let prk = VectorPrimitives.hkdfExtract(salt: hh, inputKeyMaterial: [sharedSecret, payload.commitment])
        self.prk = prk
        let keys = try ["AH4 hello", "AH4 s2r", "AH4 r2s", "AH4 code key"].map { label in
            try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii(label), length: 32)
        }
        (helloKey, s2rKey, r2sKey, codeKey) = (keys[0], keys[1], keys[2], keys[3])
        helloTag = VectorPrimitives.hmac(key: helloKey, message: hh)
        helloFrame = VectorPrimitives.frameBytes(type: .hello, transferID: transferID, sequence: 0, body: receiverPublicKey + helloTag)
        th1 = VectorPrimitives.sha256([th0, helloFrame])
        (codePRK, codeMaterial) = try ShortCodeVectors.codeMaterial(codeKey: codeKey, nonce: sender.nonce, th1: th1)
        guard let index = VectorPrimitives.acceptedCandidateIndex(material: codeMaterial),
              let code = VectorPrimitives.shortCode(material: codeMaterial) else {
            throw VectorGenerationError("\(sender.name)-\(receiver.name): every code candidate rejected")
        }
        codeIndex = index
        self.code = code
    }

    /// The sealing key of a direction.
    func key(senderToReceiver: Bool) -> [UInt8] { senderToReceiver ? s2rKey : r2sKey }

    /// The additional data of Spec 4.3 for a frame header, with `T` = `transcript` and
    /// `L` = `boundLinkID` (the offered account's unless a forger chose another).
    func additionalData(header: [UInt8], type: MessageType, transcript: [UInt8], boundLinkID: [UInt8]? = nil) -> [UInt8] {
        header + VectorSupport.bigEndian(expiry) + transcript + ([.accept, .credential, .receipt].contains(type) ? boundLinkID ?? linkID : [])
    }

    func json(helloFrameID: Int) -> JSONValue {
        .object([
            "sender": .string(sender), "receiver": .string(receiver), "receiverPrivateKey": .hex(receiverPrivateKey),
            "receiverPublicKey": .hex(receiverPublicKey), "hh": .hex(hh), "sharedSecret": .hex(sharedSecret), "prk": .hex(prk),
            "helloKey": .hex(helloKey), "s2rKey": .hex(s2rKey), "r2sKey": .hex(r2sKey), "codeKey": .hex(codeKey),
            "helloTag": .hex(helloTag), "helloFrame": .number(helloFrameID), "th1": .hex(th1), "codePRK": .hex(codePRK),
            "codeMaterial": .hex(codeMaterial), "codeCandidateIndex": .number(codeIndex), "shortCode": VectorSupport.shortCode(code),
        ])
    }
}
