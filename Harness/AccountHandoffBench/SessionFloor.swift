import AccountHandoff
internal import CSodium

/// The exact libsodium floor of one session: the primitive calls of a
/// ``ReferenceSession`` (both sides, the receiver decoding the QR text), in the same order and
/// with the same input lengths: every random draw, SHA-256, HMAC (HKDF included), X25519 and
/// AEAD seal and open, with the real transcript and additional-data lengths and an offer of
/// the real record size. They run on buffers allocated once in `init`, with no guarded memory,
/// frame objects, arrays or state machines, and on real values: the keys agree, every tag
/// verifies and every frame opens, so libsodium takes its success path throughout.
///
/// What it leaves out is the cost of doing this safely and in Swift: wiping, guarded memory,
/// frame encoding and parsing, the state machines. `handoff-dev bench` reports a session's time
/// divided by this floor's.
///
/// ``SodiumCalls/measure(_:)`` counts the calls where libsodium is called, for the floor and a
/// real session alike, so it can show that both make the same calls.
/// One instance per thread: `runOneSession()` reuses its buffers.
package final class SessionFloor {
    /// The session sizes that depend on the inputs.
    package struct Shape: Hashable, Sendable {
        /// The QR's binary form (Spec 2.2): 71 bytes plus the rendezvous.
        package let qrBinaryByteCount: Int
        /// The offer plaintext (Spec 3.4): the record padded to a multiple of 256 bytes.
        package let offerPlaintextByteCount: Int
    }

    package let shape: Shape

    private let memory: UnsafeMutableRawPointer
    private let sender: Side
    private let receiver: Side
    private let frames: Frames
    /// The sender's nonce, commitment and QR binary; the receiver's revealed nonce and its
    /// recomputed commitment.
    private let nonce, commitment, qrBinary, revealedNonce, recomputedCommitment: UnsafeMutablePointer<UInt8>
    /// Plaintexts the sender seals and buffers the receiver opens into (and the reverse).
    private let offerPlaintext, openedOffer, credentialPlaintext, openedCredential: UnsafeMutablePointer<UInt8>
    private let acceptPlaintext, openedAccept, receiptPlaintext, openedReceipt: UnsafeMutablePointer<UInt8>
    private let linkID: UnsafeMutablePointer<UInt8>

    /// A floor for transferring `account` with `rendezvous` in the QR.
    package init(account: AccountMetadata, rendezvous: RendezvousToken) {
        precondition(sodium_init() >= 0, "libsodium failed to initialise")
        let offer = AccountMetadataCodec.encode(account, senderGate: .asks)
        shape = Shape(qrBinaryByteCount: SessionPayload.fixedByteCount + rendezvous.bytes.count,
                      offerPlaintextByteCount: offer.count)
        let capacity = 8192 + 3 * offer.count
        memory = .allocate(byteCount: capacity, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        var arena = Arena(base: memory, capacity: capacity)
        sender = Side(&arena)
        receiver = Side(&arena)
        frames = Frames(&arena, offerPlaintextByteCount: offer.count)
        nonce = arena.take(Commitment.nonceByteCount)
        commitment = arena.take(SHA256.byteCount)
        qrBinary = arena.take(shape.qrBinaryByteCount)
        revealedNonce = arena.take(Commitment.nonceByteCount)
        recomputedCommitment = arena.take(SHA256.byteCount)
        offerPlaintext = arena.take(offer.count)
        openedOffer = arena.take(offer.count)
        credentialPlaintext = arena.take(CredentialPlaintext.paddedByteCount)
        openedCredential = arena.take(CredentialPlaintext.paddedByteCount)
        acceptPlaintext = arena.take(1)  // receiverGate (Spec 3.6)
        openedAccept = arena.take(1)
        receiptPlaintext = arena.take(1)
        openedReceipt = arena.take(1)
        linkID = arena.take(AccountLinkID.byteCount)

        offerPlaintext.update(from: offer, count: offer.count)
        linkID.update(from: account.linkID.bytes, count: AccountLinkID.byteCount)
        let password = Array("correct-horse-battery-staple-9f27".utf8)
        credentialPlaintext[1] = UInt8(password.count)
        (credentialPlaintext + 2).update(from: password, count: password.count)
        receiptPlaintext[0] = ReceiptStatus.imported.rawValue
        acceptPlaintext[0] = GateDeclaration.asks.byte
        qrBinary[0] = SessionPayload.currentVersion
        qrBinary[1] = TransferIntent.sendAccount.rawValue
        qrBinary[2] = 0x6b; qrBinary[3] = 0x49; qrBinary[4] = 0xd2; qrBinary[5] = 0x00  // an expiry
        qrBinary[70] = UInt8(rendezvous.bytes.count)
        (qrBinary + 71).update(from: rendezvous.bytes, count: rendezvous.bytes.count)
    }

    /// A floor for the session `handoff-dev bench` times.
    package convenience init(_ session: ReferenceSession) {
        self.init(account: session.account, rendezvous: session.rendezvous)
    }

    deinit {
        sodium_memzero(memory, 8192 + 3 * shape.offerPlaintextByteCount)
        memory.deallocate()
    }

    /// The libsodium work of one complete session, both sides, in protocol order.
    package func runOneSession() {
        // Sender: start (nonce, commitment, key pair, QR, transfer ID, TH0).
        randomFill(nonce, Commitment.nonceByteCount)
        sha256(into: commitment, Commitment.label, Commitment.label.count, nonce, Commitment.nonceByteCount)
        randomFill(sender.privateKey, 32)
        scalarMultBase(sender.publicKey, sender.privateKey)
        (qrBinary + 6).update(from: commitment, count: 32)
        (qrBinary + 38).update(from: sender.publicKey, count: 32)
        hashTransferID(sender)
        startTranscript(sender)

        // Receiver: decode the QR text (transfer ID), scan (key pair, TH0, keys, hello, TH1).
        hashTransferID(receiver)
        randomFill(receiver.privateKey, 32)
        scalarMultBase(receiver.publicKey, receiver.privateKey)
        startTranscript(receiver)
        deriveKeys(receiver, peer: qrBinary + 38, receiverPublicKey: receiver.publicKey)
        frames.writeHeader(frames.hello, .hello, sequence: 0, bodyLength: 64, transferID: receiver.transferID)
        (frames.hello + 24).update(from: receiver.publicKey, count: 32)
        helloTag(receiver, into: frames.hello + 56)
        absorb(receiver, frames.hello, Frames.helloByteCount)
        receiver.handshakeTranscript.update(from: receiver.transcript, count: 32)

        // Sender: verify the hello (H3, H4), TH1, the short code, seal the reveal.
        deriveKeys(sender, peer: frames.hello + 24, receiverPublicKey: frames.hello + 24)
        helloTag(sender, into: sender.helloTag)
        precondition(sodium_memcmp(sender.helloTag, frames.hello + 56, 32) == 0, "floor: hello tag")
        absorb(sender, frames.hello, Frames.helloByteCount)
        sender.handshakeTranscript.update(from: sender.transcript, count: 32)
        deriveShortCode(sender, nonce: nonce)
        seal(sender, .reveal, frames.reveal, sequence: 0, nonce, Commitment.nonceByteCount, key: sender.senderToReceiver)

        // Receiver: open the reveal, check the commitment, derive the short code.
        open(receiver, frames.reveal, sequence: 0, plaintextByteCount: 32, into: revealedNonce, key: receiver.senderToReceiver)
        sha256(into: recomputedCommitment, Commitment.label, Commitment.label.count, revealedNonce, Commitment.nonceByteCount)
        precondition(sodium_memcmp(recomputedCommitment, qrBinary + 6, 32) == 0, "floor: commitment")
        deriveShortCode(receiver, nonce: revealedNonce)

        // Offer, accept, credential, receipt.
        seal(sender, .offer, frames.offer, sequence: 1, offerPlaintext, shape.offerPlaintextByteCount, key: sender.senderToReceiver)
        open(receiver, frames.offer, sequence: 1, plaintextByteCount: shape.offerPlaintextByteCount, into: openedOffer,
             key: receiver.senderToReceiver)
        seal(receiver, .accept, frames.accept, sequence: 1, acceptPlaintext, 1, key: receiver.receiverToSender)
        open(sender, frames.accept, sequence: 1, plaintextByteCount: 1, into: openedAccept, key: sender.receiverToSender)
        seal(sender, .credential, frames.credential, sequence: 2, credentialPlaintext, CredentialPlaintext.paddedByteCount,
             key: sender.senderToReceiver)
        open(receiver, frames.credential, sequence: 2, plaintextByteCount: CredentialPlaintext.paddedByteCount,
             into: openedCredential, key: receiver.senderToReceiver)
        seal(receiver, .receipt, frames.receipt, sequence: 2, receiptPlaintext, 1, key: receiver.receiverToSender)
        open(sender, frames.receipt, sequence: 2, plaintextByteCount: 1, into: openedReceipt, key: sender.receiverToSender)
    }

    // MARK: Protocol steps

    /// The transfer ID of the QR binary (Spec 2.1); only its first 16 bytes are used.
    private func hashTransferID(_ side: Side) {
        sha256(into: side.transferID, TransferID.label, TransferID.label.count, qrBinary, shape.qrBinaryByteCount)
    }

    /// `TH0` (Spec 4.1).
    private func startTranscript(_ side: Side) {
        sha256(into: side.transcript, Transcript.label, Transcript.label.count, qrBinary, shape.qrBinaryByteCount)
    }

    /// `HH`, the DH result and the four keys (Spec 4.2).
    private func deriveKeys(_ side: Side, peer: UnsafePointer<UInt8>, receiverPublicKey: UnsafePointer<UInt8>) {
        sha256(into: side.handshakeHash, side.transcript, 32, receiverPublicKey, 32)
        scalarMult(side.shared, side.privateKey, peer)
        var extract = FloorHMAC(key: side.handshakeHash, count: 32)
        extract.update(side.shared, 32)
        extract.update(qrBinary + 6, 32)
        extract.finish(into: side.prk)
        expand(side.prk, SessionKeys.Label.hello, into: side.helloKey, blocks: 1)
        expand(side.prk, SessionKeys.Label.senderToReceiver, into: side.senderToReceiver, blocks: 1)
        expand(side.prk, SessionKeys.Label.receiverToSender, into: side.receiverToSender, blocks: 1)
        expand(side.prk, SessionKeys.Label.codeKey, into: side.codeKey, blocks: 1)
    }

    /// `HMAC(helloKey, HH)`.
    private func helloTag(_ side: Side, into output: UnsafeMutablePointer<UInt8>) {
        var mac = FloorHMAC(key: side.helloKey, count: 32)
        mac.update(side.handshakeHash, 32)
        mac.finish(into: output)
    }

    /// `HKDF-Expand(HKDF-Extract(TH1, codeKey | nonce), "AH4 code", 64)` (Spec 4.4).
    private func deriveShortCode(_ side: Side, nonce: UnsafePointer<UInt8>) {
        var extract = FloorHMAC(key: side.handshakeTranscript, count: 32)
        extract.update(side.codeKey, 32)
        extract.update(nonce, 32)
        extract.finish(into: side.codePRK)
        expand(side.codePRK, ShortCode.materialLabel, into: side.codeMaterial, blocks: 2)
    }

    /// HKDF-Expand of whole blocks, as ``HKDF`` does it.
    private func expand(_ prk: UnsafePointer<UInt8>, _ info: [UInt8], into output: UnsafeMutablePointer<UInt8>, blocks: Int) {
        var counter: UInt8 = 1
        for block in 0..<blocks {
            var mac = FloorHMAC(key: prk, count: 32)
            if block > 0 { mac.update(output + (block - 1) * 32, 32) }
            mac.update(info, info.count)
            mac.update(&counter, 1)
            mac.finish(into: output + block * 32)
            counter &+= 1
        }
    }

    /// Seals `plaintext` into `frame` (header, then body) and absorbs the frame (Spec 4.3, 5.3)
    /// unless it is the receipt.
    private func seal(_ side: Side, _ type: MessageType, _ frame: UnsafeMutablePointer<UInt8>, sequence: UInt32,
                      _ plaintext: UnsafePointer<UInt8>, _ count: Int, key: UnsafePointer<UInt8>) {
        frames.writeHeader(frame, type, sequence: sequence, bodyLength: count + 16, transferID: side.transferID)
        let adCount = additionalData(side, frame, type)
        side.writeNonce(sequence)
        var sealedCount: UInt64 = 0
        _ = crypto_aead_chacha20poly1305_ietf_encrypt(frame + 24, &sealedCount, plaintext, UInt64(count),
                                                      side.additionalData, UInt64(adCount), nil, side.aeadNonce, key)
        if type != .receipt { absorb(side, frame, 24 + count + 16) }  // the receipt ends the session: no TH6
    }

    /// Opens `frame` into `output` and absorbs it unless it is the receipt; every frame of the
    /// floor authenticates.
    private func open(_ side: Side, _ frame: UnsafeMutablePointer<UInt8>, sequence: UInt32, plaintextByteCount: Int,
                      into output: UnsafeMutablePointer<UInt8>, key: UnsafePointer<UInt8>) {
        let type = MessageType(rawValue: frame[1])!
        let adCount = additionalData(side, frame, type)
        side.writeNonce(sequence)
        let sealedCount = plaintextByteCount + 16
        var openedCount: UInt64 = 0
        let status = crypto_aead_chacha20poly1305_ietf_decrypt(output, &openedCount, nil, frame + 24, UInt64(sealedCount),
                                                               side.additionalData, UInt64(adCount), side.aeadNonce, key)
        precondition(status == 0, "floor: a frame did not authenticate")
        if type != .receipt { absorb(side, frame, 24 + sealedCount) }
    }

    /// `header | expiry | TH | linkID (accept, credential, receipt)` into the side's buffer; its length.
    private func additionalData(_ side: Side, _ frame: UnsafePointer<UInt8>, _ type: MessageType) -> Int {
        side.additionalData.update(from: frame, count: 24)
        (side.additionalData + 24).update(from: qrBinary + 2, count: 4)
        (side.additionalData + 28).update(from: side.transcript, count: 32)
        guard SecureChannel.bindsAccount(type) else { return 60 }
        (side.additionalData + 60).update(from: linkID, count: AccountLinkID.byteCount)
        return 76
    }

    /// `TH = SHA-256(TH | frame)`.
    private func absorb(_ side: Side, _ frame: UnsafePointer<UInt8>, _ count: Int) {
        sha256(into: side.transcript, side.transcript, 32, frame, count)
    }

    // MARK: Primitives

    private func randomFill(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) {
        randombytes_buf(buffer, count)
    }

    private func scalarMultBase(_ publicKey: UnsafeMutablePointer<UInt8>, _ privateKey: UnsafePointer<UInt8>) {
        _ = crypto_scalarmult_base(publicKey, privateKey)
    }

    private func scalarMult(_ shared: UnsafeMutablePointer<UInt8>, _ privateKey: UnsafePointer<UInt8>, _ peer: UnsafePointer<UInt8>) {
        let status = crypto_scalarmult(shared, privateKey, peer)
        precondition(status == 0, "floor: low-order key")
    }

    /// `SHA-256(first | second)`, both parts fed as the session feeds them.
    private func sha256(into digest: UnsafeMutablePointer<UInt8>, _ first: UnsafePointer<UInt8>, _ firstCount: Int,
                        _ second: UnsafePointer<UInt8>, _ secondCount: Int) {
        var state = crypto_hash_sha256_state()
        crypto_hash_sha256_init(&state)
        crypto_hash_sha256_update(&state, first, UInt64(firstCount))
        crypto_hash_sha256_update(&state, second, UInt64(secondCount))
        crypto_hash_sha256_final(&state, digest)
    }
}

/// An incremental HMAC-SHA256 on the stack.
private struct FloorHMAC {
    private var state = crypto_auth_hmacsha256_state()

    init(key: UnsafePointer<UInt8>, count: Int) {
        crypto_auth_hmacsha256_init(&state, key, count)
    }

    mutating func update(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        crypto_auth_hmacsha256_update(&state, bytes, UInt64(count))
    }

    mutating func finish(into tag: UnsafeMutablePointer<UInt8>) {
        crypto_auth_hmacsha256_final(&state, tag)
    }
}

/// Hands out 16-byte-aligned pieces of the floor's one allocation.
private struct Arena {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private var used = 0

    init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    mutating func take(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(used + count <= capacity, "floor arena too small")
        let piece = (base + used).assumingMemoryBound(to: UInt8.self)
        used += (count + 15) & ~15
        return piece
    }
}

/// One device's keys, transcript and scratch buffers.
private struct Side {
    let privateKey, publicKey, transferID, handshakeHash, shared, prk: UnsafeMutablePointer<UInt8>
    let helloKey, senderToReceiver, receiverToSender, codeKey, helloTag: UnsafeMutablePointer<UInt8>
    /// `TH` as it runs, and `TH1`.
    let transcript, handshakeTranscript: UnsafeMutablePointer<UInt8>
    let codePRK, codeMaterial, additionalData, aeadNonce: UnsafeMutablePointer<UInt8>

    init(_ arena: inout Arena) {
        privateKey = arena.take(32); publicKey = arena.take(32); transferID = arena.take(32)
        handshakeHash = arena.take(32); shared = arena.take(32); prk = arena.take(32)
        helloKey = arena.take(32); senderToReceiver = arena.take(32); receiverToSender = arena.take(32)
        codeKey = arena.take(32); helloTag = arena.take(32)
        transcript = arena.take(32); handshakeTranscript = arena.take(32)
        codePRK = arena.take(32); codeMaterial = arena.take(64)
        additionalData = arena.take(76); aeadNonce = arena.take(12)
    }

    /// `00 x 8 | sequence (big-endian)`.
    func writeNonce(_ sequence: UInt32) {
        for index in 0..<4 { aeadNonce[8 + index] = UInt8(truncatingIfNeeded: sequence >> (24 - 8 * UInt32(index))) }
    }
}

/// The six frames of a session, written in place.
private struct Frames {
    static let helloByteCount = 24 + 64
    let hello, reveal, offer, accept, credential, receipt: UnsafeMutablePointer<UInt8>

    init(_ arena: inout Arena, offerPlaintextByteCount: Int) {
        hello = arena.take(Self.helloByteCount)
        reveal = arena.take(24 + 32 + 16)
        offer = arena.take(24 + offerPlaintextByteCount + 16)
        accept = arena.take(24 + 1 + 16)
        credential = arena.take(24 + CredentialPlaintext.paddedByteCount + 16)
        receipt = arena.take(24 + 1 + 16)
    }

    /// `version | type | transferID[16] | sequence | bodyLength` (Spec 3.1).
    func writeHeader(_ frame: UnsafeMutablePointer<UInt8>, _ type: MessageType, sequence: UInt32, bodyLength: Int,
                     transferID: UnsafePointer<UInt8>) {
        frame[0] = SessionPayload.currentVersion
        frame[1] = type.rawValue
        (frame + 2).update(from: transferID, count: TransferID.byteCount)
        for index in 0..<4 { frame[18 + index] = UInt8(truncatingIfNeeded: sequence >> (24 - 8 * UInt32(index))) }
        frame[22] = UInt8(bodyLength >> 8)
        frame[23] = UInt8(truncatingIfNeeded: bodyLength)
    }
}
