import Foundation

/// Receiver state `awaitingPakeInit` (Spec 6.2, typed way): the person typed a code whose check
/// digit holds; the connection to a sending device is open and its `pakeInit` is awaited.
/// Nothing was sent, so no guess is given away in this state.
///
/// Accepts, after the steps of Spec 6.0:
/// - a `pakeInit` (sequence 0, any transfer ID: it names the session): its `expiry` checked as
///   scan steps S2-S3 (`expired`, `expiryTooFar`), `Ya` checked to be an element
///   (`invalidPakeShare`), the code claimed in the registry (`typedCodeAlreadyUsed`), then
///   CPace as the responder; sends `pakeReply`, next `awaitingPakeConfirm`. Each refusal ends
///   the session without a frame;
/// - `cancel`: ends `cancelled.local`; `transportLost`: ends `failed.transportLost` (the code
///   is not used up: nothing was sent); `tick` changes nothing.
///
/// Ignores every other frame (`unexpectedMessage`) and a `pakeInit` of another sequence number
/// (`malformed.sequence`).
struct ReceiverAwaitingPakeInit {
    /// The typed code, owned until the run uses it up (wiped at the end in every case).
    let code: TypedCode
    /// How the connection reached the sending device (bound into `CI`, Spec 12.7).
    let route: TypedRoute
    /// The random source of `yb` (the core draws nothing itself).
    let random: RandomSource
    /// The registry that claims the code before the reply leaves (Spec 6.3).
    let registry: ReceiverRegistry?

    /// The typed way's run (Spec 6.2 `pakeInit` row).
    func receivePakeInit(_ frame: Frame, bytes: [UInt8], now: Double, skew: UInt32,
                         arena: SessionArena) -> (ReceiverTransition, transferID: TransferID?, expiry: UInt32?) {
        guard frame.sequence == TypedFrames.handshakeSequence else { return (.ignore(.malformed(.sequence)), nil, nil) }
        let fields = TypedFrames.readPakeInit(frame)
        let end = { (error: HandoffError) in (ReceiverTransition.finish(.ended(error == .expired ? .expired : .failed(error))), frame.transferID, fields.expiry) }
        guard now < Double(fields.expiry) + Double(skew) else { return end(.expired) }
        guard Double(fields.expiry) <= now + Double(SenderConfiguration.maximumLifetime) + Double(skew) else { return end(.expiryTooFar) }
        guard fields.share.bytes.withUnsafeBytes({ Ristretto255.isValidElement($0) }) else { return end(.invalidPakeShare) }
        do {
            let claimExpiry = UInt32(min(Double(UInt32.max), (now + Double(SenderConfiguration.maximumLifetime) + Double(skew)).rounded(.down)))
            try registry?.claim(typedCode: code.claimID, expiry: claimExpiry)
            let reply = try respond(to: fields, pakeInit: bytes, transferID: frame.transferID, arena: arena)
            code.wipe()
            return (.next(.awaitingPakeConfirm(ReceiverAwaitingPakeConfirm(channel: reply.channel)), [.send(reply.frame)]),
                    frame.transferID, fields.expiry)
        } catch {
            return end(error)
        }
    }

    /// CPace as the responder (Spec 12.7), then the keys and `tagR` of Spec 4.5; every secret
    /// lives in `arena` or is wiped before this returns.
    private func respond(to fields: TypedFrames.PakeInit, pakeInit: [UInt8], transferID: TransferID,
                         arena: SessionArena) throws(HandoffError) -> (channel: SecureChannel, frame: [UInt8]) {
        let ci = TypedChannelIdentifier.encode(nameplate: code.nameplate, expiry: fields.expiry, route: route, transferID: transferID)
        let password = try code.password()
        defer { password.wipe() }
        let run = try CPaceRun(role: .responder, password: password, channelIdentifier: ci, sessionID: fields.sessionID, random: random)
        defer { run.wipe() }
        let isk = try run.intermediateSessionKey(peerShare: fields.share)
        defer { isk.wipe() }
        let start = Transcript(pakeInit: pakeInit)
        let handshakeHash = run.ownShare.bytes.withUnsafeBytes { start.handshakeHash(receiverPublicKey: $0) }
        let keys = isk.withUnsafeBytes { TypedKeySchedule.keys(intermediateSessionKey: $0, handshakeHash: handshakeHash, arena: arena) }
        let reply = arena.withScratch(byteCount: TypedFrames.tagByteCount) { tag in
            TypedKeySchedule.writeTag(key: keys.receiverConfirmKey, over: handshakeHash, into: tag)
            return TypedFrames.pakeReply(transferID: transferID, sessionID: fields.sessionID, share: run.ownShare,
                                         tag: UnsafeRawBufferPointer(tag))
        }
        keys.receiverConfirmKey.wipe()
        var transcript = start
        transcript.absorb(frame: reply)
        return (SecureChannel(typedRole: .receiver, transferID: transferID, expiry: fields.expiry, keys: keys, transcript: transcript),
                reply)
    }

    /// `cancel`: nothing was sent; ends `cancelled.local`.
    func cancel() -> ReceiverTransition {
        code.wipe()
        return .finish(.ended(.cancelled(by: .local)))
    }

    /// `transportLost`: nothing was sent, so the code is not used up.
    func transportLost() -> ReceiverTransition {
        code.wipe()
        return .finish(.ended(.failed(.transportLost)))
    }

    /// The receiver's own deadline passed with no `pakeInit` (Spec 6.2).
    func expire() -> ReceiverTransition {
        code.wipe()
        return .finish(.ended(.expired))
    }
}

/// Receiver state `awaitingPakeConfirm` (Spec 6.2, typed way): the `pakeReply` is sent, the
/// code is claimed and used up; the sending device's confirmation is awaited.
///
/// Accepts, after the steps of Spec 6.0:
/// - a `pakeConfirm` (sequence 1) whose `tagS` is right: absorbed (`TH2`), next `awaitingOffer`
///   with no code shown; a wrong `tagS` ends `failed.typedCodeMismatch`;
/// - a `pakeRefused` (sequence 1): ends `failed.typedCodeMismatch`;
/// - `transportLost`: ends `failed.typedCodeUnconfirmed`; `cancel` ends `cancelled.local` and
///   the expiry `expired`, without a frame (the sending device has not confirmed these keys);
///   `tick` changes nothing.
///
/// Ignores every other frame (`unexpectedMessage`) and a confirmation of another sequence
/// number (`malformed.sequence`).
struct ReceiverAwaitingPakeConfirm {
    let channel: SecureChannel

    /// A `pakeConfirm` or `pakeRefused` for this session.
    func receive(_ frame: Frame, bytes: [UInt8], arena: SessionArena) -> ReceiverTransition {
        switch frame.type {
        case .pakeConfirm, .pakeRefused:
            guard frame.sequence == TypedFrames.confirmSequence else { return .ignore(.malformed(.sequence)) }
        case .hello, .offer, .accept, .credential, .receipt, .abort, .reveal, .pakeInit, .pakeReply:
            return .ignore(.unexpectedMessage(frame.type, in: .receiver(.awaitingPakeConfirm)))
        }
        guard frame.type == .pakeConfirm else { return .finish(.ended(.failed(.typedCodeMismatch))) }
        let confirmed = TypedKeySchedule.tagMatches(Array(frame.bodyBytes), key: channel.keys.senderConfirmKey,
                                                    over: channel.transcript.digest, arena: arena)
        channel.keys.senderConfirmKey.wipe()
        guard confirmed else { return .finish(.ended(.failed(.typedCodeMismatch))) }
        channel.absorbConfirmation(bytes)
        return .next(.awaitingOffer(ReceiverAwaitingOffer(confirmed: channel)), [])
    }

    /// `cancel`: ends `cancelled.local` without a frame.
    func cancel() -> ReceiverTransition { .finish(.ended(.cancelled(by: .local))) }

    /// `transportLost` after the reply: the code is used up and was not confirmed.
    func transportLost() -> ReceiverTransition { .finish(.ended(.failed(.typedCodeUnconfirmed))) }

    /// The expiry rule (Spec 6.0 step 3), without a frame.
    func expire() -> ReceiverTransition { .finish(.ended(.expired)) }
}
