import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// The typed way's records of one session (Vectors/README.md, "sessions.json": `typedRuns`,
/// `typedHandshakes`): every value recomputed from its raw inputs with the formulas of Spec 12.6,
/// 12.7, 3.8 and 4.5, and every AEAD frame sealed with a typed pair's keys sealed again. The
/// steps themselves are replayed by ``SessionReplay``, which checks that the real sessions send
/// exactly these frames.
struct TypedSessionReplay {
    let replay: SessionReplay

    init(_ replay: SessionReplay) { self.replay = replay }

    func check(qrs: [String: Any], accounts: [String: AccountMetadata]) throws {
        let runs = (replay.session["typedRuns"] as? [[String: Any]]) ?? []
        let pairs = (replay.session["typedHandshakes"] as? [[String: Any]]) ?? []
        for (index, run) in runs.enumerated() { try checkRun(run, index: index, qrs: qrs) }
        for (index, pair) in pairs.enumerated() { try checkPair(pair, index: index, runs: runs, qrs: qrs) }
        try checkSealedFrames(runs: runs, pairs: pairs, qrs: qrs, accounts: accounts)
    }

    private var name: String { replay.name }

    /// `CI` (Spec 12.7) of a device's own view.
    private func channelIdentifier(code: String, expiry: UInt32, route: String, transferID: TransferID) throws -> [UInt8] {
        let routeValue = try #require(TypedRoute.allCases.first { $0.description == route }, "\(name): route \(route)")
        let nameplate = try #require(TypedCode.Nameplate(digits: String(code.prefix(3))))
        return TypedChannelIdentifier.encode(nameplate: nameplate, expiry: expiry, route: routeValue, transferID: transferID)
    }

    private func password(_ code: String) -> [UInt8] { Array(code.utf8.dropFirst(3).prefix(7)) }

    private func checkRun(_ run: [String: Any], index: Int, qrs: [String: Any]) throws {
        let context = "\(name): typed run \(index)"
        let qr = try qrs.object(try run.string("sender"))
        let transferID = try #require(TransferID(bytes: try qr.bytes("transferID")))
        let expiry = UInt32(try qr.int("expiry"))
        let code = try run.string("code"), sid = try run.bytes("sid")
        let ci = try channelIdentifier(code: code, expiry: expiry, route: try run.string("route"), transferID: transferID)
        let generator = try VectorPrimitives.cpaceGenerator(password: password(code), channelIdentifier: ci, sessionID: sid)
        let share = try VectorPrimitives.cpaceScalarMult(scalar: try run.bytes("ya"), element: generator)
        #expect(try ci == run.bytes("ci") && generator == run.bytes("generator") && share == run.bytes("Ya"), "\(context): CI, g, Ya")
        let pakeInit = VectorPrimitives.frameBytes(type: .pakeInit, transferID: transferID, sequence: 0, body: bigEndian(expiry) + sid + share)
        #expect(try pakeInit == replay.frames[Int(run.int("pakeInit"))], "\(context): pakeInit (3.8)")
    }

    private func checkPair(_ pair: [String: Any], index: Int, runs: [[String: Any]], qrs: [String: Any]) throws {
        let context = "\(name): typed handshake \(index)"
        let run = runs[Int(try pair.int("typedRun"))]
        let qr = try qrs.object(try run.string("sender"))
        let transferID = try #require(TransferID(bytes: try qr.bytes("transferID")))
        let expiry = UInt32(try qr.int("expiry"))
        let sid = try run.bytes("sid"), ya = try run.bytes("Ya"), code = try pair.string("code")
        let ci = try channelIdentifier(code: code, expiry: expiry, route: try pair.string("route"), transferID: transferID)
        let generator = try VectorPrimitives.cpaceGenerator(password: password(code), channelIdentifier: ci, sessionID: sid)
        let yb = try VectorPrimitives.cpaceScalarMult(scalar: try pair.bytes("yb"), element: generator)
        let receiverK = try VectorPrimitives.cpaceSharedPoint(scalar: try pair.bytes("yb"), share: ya)
        let transcript = try #require(VectorPrimitives.cpaceInitiatorResponderTranscript(ya: ya, ada: [], yb: yb, adb: []))
        let isk = try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: sid, k: receiverK, transcript: transcript)
        #expect(try ci == pair.bytes("ci") && generator == pair.bytes("generator") && yb == pair.bytes("Yb"), "\(context): CI, g, Yb")
        #expect(try receiverK == pair.bytes("receiverK") && transcript == pair.bytes("transcript") && isk == pair.bytes("receiverISK"),
                "\(context): K, transcript_ir, ISK (12.6)")
        let pakeInit = replay.frames[Int(try run.int("pakeInit"))]
        let th0t = VectorPrimitives.sha256([Array("AH4 typed transcript".utf8), pakeInit])
        let hht = VectorPrimitives.sha256([th0t, yb])
        func keys(_ isk: [UInt8]) throws -> [String: [UInt8]] {
            let prk = VectorPrimitives.hkdfExtract(salt: hht, inputKeyMaterial: [isk])
            var out = ["prk": prk]
            for (key, label) in [("receiverConfirmKey", "AH4 typed receiver confirm"), ("senderConfirmKey", "AH4 typed sender confirm"),
                                 ("s2rKey", "AH4 typed s2r"), ("r2sKey", "AH4 typed r2s")] {
                out[key] = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: Array(label.utf8), length: 32)
            }
            return out
        }
        let receiverKeys = try keys(isk)
        for key in ["prk", "receiverConfirmKey", "senderConfirmKey", "s2rKey", "r2sKey"] {
            #expect(try receiverKeys[key] == pair.bytes(key), "\(context): \(key) (4.5)")
        }
        let tagR = VectorPrimitives.hmac(key: receiverKeys["receiverConfirmKey"]!, message: hht)
        let reply = VectorPrimitives.frameBytes(type: .pakeReply, transferID: transferID, sequence: 0, body: sid + yb + tagR)
        let th1 = VectorPrimitives.sha256([th0t, reply])
        #expect(try th0t == pair.bytes("th0t") && hht == pair.bytes("hht") && tagR == pair.bytes("tagR"), "\(context): TH0t, HHt, tagR")
        #expect(try reply == replay.frames[Int(pair.int("pakeReply"))] && th1 == pair.bytes("th1"), "\(context): pakeReply, TH1")
        // The run's sender, from its own scalar and code.
        let senderCode = try run.string("code")
        let senderK = try VectorPrimitives.cpaceSharedPoint(scalar: try run.bytes("ya"), share: yb)
        let senderISK = try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: sid, k: senderK, transcript: transcript)
        let senderKeys = try keys(senderISK)
        let accepts = VectorPrimitives.hmac(key: senderKeys["receiverConfirmKey"]!, message: hht) == tagR
        #expect(try senderK == pair.bytes("senderK") && senderISK == pair.bytes("senderISK"), "\(context): the sender's K and ISK")
        #expect(accepts == (pair["senderAcceptsTagR"] as? Bool) && accepts == (senderCode == code && senderKeys == receiverKeys),
                "\(context): the sender accepts tagR exactly when both hold one code and view")
        guard accepts else {
            #expect(pair["tagS"] == nil && pair["pakeConfirm"] == nil, "\(context): no pakeConfirm for a wrong tagR")
            return
        }
        let tagS = VectorPrimitives.hmac(key: senderKeys["senderConfirmKey"]!, message: th1)
        let confirm = VectorPrimitives.frameBytes(type: .pakeConfirm, transferID: transferID, sequence: 1, body: tagS)
        #expect(try tagS == pair.bytes("tagS") && VectorPrimitives.sha256([th1, confirm]) == pair.bytes("th2"), "\(context): tagS, TH2")
        if pair["pakeConfirm"] != nil {
            #expect(try confirm == replay.frames[Int(pair.int("pakeConfirm"))], "\(context): pakeConfirm")
        }
    }

    /// Spec 4.3 with a typed pair's keys: the AD's expiry is the `pakeInit`'s (4.5).
    private func checkSealedFrames(runs: [[String: Any]], pairs: [[String: Any]], qrs: [String: Any],
                                   accounts: [String: AccountMetadata]) throws {
        for record in replay.frameRecords where record["key"] != nil && record["typedHandshake"] != nil {
            let id = Int(try record.int("id")), sequence = UInt32(try record.int("sequence"))
            let context = "\(name): frame \(id)"
            let type = try #require(MessageType.allCases.first { $0.description == (try? record.string("type")) })
            let pair = pairs[Int(try record.int("typedHandshake"))]
            let sender = try runs[Int(try pair.int("typedRun"))].string("sender")
            let qr = try qrs.object(sender)
            let plaintext = try record.bytes("plaintext"), ad = try record.bytes("additionalData")
            let header = VectorPrimitives.frameHeader(type: type, transferID: TransferID(bytes: try qr.bytes("transferID"))!, sequence: sequence,
                                                      bodyLength: plaintext.count + 16)
            let linkID = [.accept, .credential, .receipt].contains(type) ? accounts[sender]!.linkID.bytes : []
            #expect(try ad == header + bigEndian(UInt32(try qr.int("expiry"))) + record.bytes("transcriptHash") + linkID, "\(context): AD")
            if type == .abort { #expect(try record.bytes("transcriptHash") == pair.bytes("th1"), "\(context): aborts bind TH1 (4.5)") }
            let key = try pair.bytes(try record.string("key") == "s2r" ? "s2rKey" : "r2sKey")
            #expect(try header + VectorPrimitives.seal(key: key, nonce: VectorPrimitives.nonce(sequence: sequence), plaintext: plaintext,
                                                       additionalData: ad) == replay.frames[id], "\(context): ciphertext")
        }
    }
}
