import AccountHandoff
import AccountHandoffTestSupport

extension VictimHarness {
    /// The peer seals a frame with an arbitrary plaintext under the session's real keys.
    func forge(_ input: inout FuzzInput) throws(InvariantViolation) {
        let types: [MessageType] = victim == .sender ? [.accept, .receipt, .abort] : [.reveal, .offer, .credential, .abort]
        let type = types[input.index(below: types.count)]
        let mode = input.byte()
        var plaintext: [UInt8]
        var linkID: AccountLinkID? = scenario.account.linkID
        switch type {
        case .reveal:
            // The real nonce (a genuine reveal), the nonce with one bit flipped, or fuzzed bytes.
            switch mode % 3 {
            case 0: plaintext = nonce
            case 1: plaintext = FrameBytes.flippingBit(nonce, bit: Int(input.byte()))
            default: plaintext = input.bytes(Int(input.byte()) % 40)
            }
        case .offer:
            // Either a valid record with fuzzed bytes written into it, or raw fuzzed bytes padded to a block.
            if mode & 1 == 0 {
                plaintext = VectorPrimitives.offerPlaintext(scenario.account)
                for _ in 0..<Int(mode >> 4) { plaintext[input.index(below: 256) % plaintext.count] = input.byte() }
            } else {
                plaintext = input.lengthPrefixed(maximum: 768)
                let padded = max(256, (plaintext.count + 255) / 256 * 256)
                if mode & 2 == 0 { plaintext += [UInt8](repeating: 0, count: padded - plaintext.count) }
            }
        case .credential:
            let length = Int(input.uint16())
            let fill = input.byte()
            plaintext = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            plaintext += [UInt8](repeating: fill, count: min(max(0, length), HandoffSender.maximumCredentialByteCount))
            plaintext += [UInt8](repeating: mode & 1 == 0 ? 0 : mode, count: max(0, 1024 - plaintext.count))
            if mode & 2 == 2 { plaintext = Array(plaintext.prefix(Int(mode) * 5)) }
        default:
            plaintext = mode < 200 ? [input.byte()] : input.bytes(Int(mode) % 4)
        }
        if mode & 0x80 != 0, SecureChannelBinding.bindsAccount(type) { linkID = AccountLinkID(bytes: [UInt8](repeating: mode, count: 16)) }
        let frame: [UInt8]?
        if type == .reveal {
            frame = try revealAtSequenceZero(plaintext)
        } else {
            frame = victim == .sender
                ? receiver.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
                : sender.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
        }
        note("forged.\(type)(\(plaintext.count))")
        guard let frame else { return }
        forgedPlaintexts.append((frame, plaintext))
        deliverable(frame)
    }

    /// A reveal sealed at sequence 0 (where the receiver expects it; the sender's own channel
    /// has already used that number for its genuine reveal), with keys re-derived from the
    /// seeds through the package's primitives (Spec 4.1-4.3).
    private func revealAtSequenceZero(_ plaintext: [UInt8]) throws(InvariantViolation) -> [UInt8] {
        do {
            var stream = [UInt8](repeating: 0, count: 64)
            stream.withUnsafeMutableBytes { InsecureDeterministicRandom(seed: scenario.senderSeed).fill($0) }
            let payload = sender.payload
            let receiverKey = Array(hello[Frame.headerByteCount..<Frame.headerByteCount + 32])
            let shared = try VectorPrimitives.x25519(privateKey: Array(stream[32..<64]), peer: receiverKey)
            let th0 = VectorPrimitives.sha256([Array("AH4 transcript".utf8), payload.binary])
            let handshakeHash = VectorPrimitives.sha256([th0, receiverKey])
            let th1 = VectorPrimitives.sha256([th0, hello])
            let prk = VectorPrimitives.hkdfExtract(salt: handshakeHash, inputKeyMaterial: [shared, payload.commitment])
            let key = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: Array("AH4 s2r".utf8), length: 32)
            let header = VectorPrimitives.frameHeader(type: .reveal, transferID: payload.transferID, sequence: 0,
                                                      bodyLength: plaintext.count + 16)
            let expiry = payload.expiry
            let additionalData = header + [UInt8(expiry >> 24), UInt8(expiry >> 16 & 0xff), UInt8(expiry >> 8 & 0xff), UInt8(expiry & 0xff)] + th1
            return header + (try VectorPrimitives.seal(key: key, nonce: VectorPrimitives.nonce(sequence: 0), plaintext: plaintext,
                                                       additionalData: additionalData))
        } catch {
            throw violation("could not forge a reveal: \(error.identifier)")
        }
    }

    /// The code of an honest run of this harness's scenario: the receiver shows it, the
    /// sending person types it.
    private func honestCode() throws(InvariantViolation) -> ShortCode {
        if scenario.startsLike(.standard) { return SessionRecording.standard.shortCode }
        return try SessionRecording.record(scenario).shortCode
    }

    /// A forged frame the victim acted on decoded to exactly what was sealed.
    func checkStrictDecoding(_ actions: [SenderAction], plaintext: [UInt8]) throws(InvariantViolation) {
        for action in actions {
            switch action {
            case .finished(.completed(let status)):
                guard plaintext == [status.rawValue] else { throw violation("a receipt decoded to the wrong status") }
            case .finished(.ended(let end)), .finished(.deliveredUnconfirmed(let end)):
                try checkAbortReason(end, plaintext: plaintext)
            default:
                break
            }
        }
    }

    /// A forged frame the receiver victim acted on decoded to exactly what was sealed.
    func checkStrictDecoding(_ actions: [ReceiverAction], plaintext: [UInt8]) throws(InvariantViolation) {
        for action in actions {
            switch action {
            case .showShortCode(let code):
                guard plaintext == nonce else { throw violation("a reveal with a nonce that does not open the commitment showed a code") }
                // The code of the victim's own session: the forger holds its keys, so the sender
                // may have accepted no hello yet, or another device's (then its code is that
                // session's). Compare with the code an honest run of the same scenario shows.
                guard code == (try honestCode()) else {
                    throw violation("the code from a genuine nonce differs from the honest session's")
                }
            case .finished(.ended(.failed(.commitmentMismatch))):
                guard plaintext != nonce else { throw violation("the real nonce was refused as a commitment mismatch") }
            case .showAccount(let account, let senderGate):
                guard VectorPrimitives.offerPlaintext(account, senderGate: senderGate) == plaintext else {
                    throw violation("an offer decoded but does not re-encode to its plaintext")
                }
            case .deliverAccount(let imported):
                let length = plaintext.count >= 2 ? Int(plaintext[0]) << 8 | Int(plaintext[1]) : -1
                guard plaintext.count == 1024, length >= 1, length <= HandoffSender.maximumCredentialByteCount,
                      imported.credential.constantTimeEquals(Array(plaintext[2..<2 + length])),
                      plaintext[(2 + length)...].allSatisfy({ $0 == 0 }) else {
                    throw violation("a credential plaintext decoded although it is not canonical")
                }
            case .finished(.ended(let end)):
                try checkAbortReason(end, plaintext: plaintext)
            default:
                break
            }
        }
    }

    private func checkAbortReason(_ end: SessionEnd, plaintext: [UInt8]) throws(InvariantViolation) {
        let expected: [UInt8]? = switch end {
        case .cancelled(by: .peer): [1]
        case .rejected(by: .peer): [2]
        case .contested: [3]
        default: nil
        }
        if let expected, plaintext != expected { throw violation("an abort decoded to the wrong reason") }
    }
}

/// Which frame types bind the account link ID into their additional data (Spec 4.3).
enum SecureChannelBinding {
    static func bindsAccount(_ type: MessageType) -> Bool {
        switch type {
        case .accept, .credential, .receipt: true
        case .hello, .reveal, .offer, .abort, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused: false
        }
    }
}
