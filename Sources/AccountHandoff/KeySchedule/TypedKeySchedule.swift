/// The typed way's key schedule (Spec 4.5), from CPace's `ISK` to the four keys of a session:
///
/// ```
/// TH0t = SHA-256("AH4 typed transcript" | pakeInit frame)
/// HHt  = SHA-256(TH0t | Yb)
/// PRK  = HKDF-Extract(salt = HHt, IKM = ISK)
/// receiverConfirmKey = HKDF-Expand(PRK, "AH4 typed receiver confirm", 32)
/// senderConfirmKey   = HKDF-Expand(PRK, "AH4 typed sender confirm", 32)
/// s2rKey             = HKDF-Expand(PRK, "AH4 typed s2r", 32)
/// r2sKey             = HKDF-Expand(PRK, "AH4 typed r2s", 32)
/// tagR = HMAC(receiverConfirmKey, HHt)        TH1 = SHA-256(TH0t | pakeReply frame)
/// tagS = HMAC(senderConfirmKey, TH1)          TH2 = SHA-256(TH1 | pakeConfirm frame)
/// ```
///
/// The keys are kept as ``SessionKeys`` in their usual places: the receiver's confirmation
/// key where the QR way keeps `helloKey`, the sender's where it keeps `codeKey`; both are
/// wiped once the confirmation is checked.
package enum TypedKeySchedule {
    /// HKDF info labels, ASCII without terminator.
    package enum Label {
        package static let transcript = Array("AH4 typed transcript".utf8)
        package static let receiverConfirm = Array("AH4 typed receiver confirm".utf8)
        package static let senderConfirm = Array("AH4 typed sender confirm".utf8)
        package static let senderToReceiver = Array("AH4 typed s2r".utf8)
        package static let receiverToSender = Array("AH4 typed r2s".utf8)
    }

    /// The four keys from `ISK` (64 bytes, read where it lies) and `HHt`, kept in `arena`;
    /// the PRK is a temporary of `arena`.
    static func keys(intermediateSessionKey isk: UnsafeRawBufferPointer, handshakeHash: SHA256.Digest,
                     arena: SessionArena) -> SessionKeys {
        arena.withScratch(byteCount: HMACSHA256.byteCount + SessionKeys.derivedByteCount) { scratch in
            let prk = UnsafeMutableRawBufferPointer(rebasing: scratch[..<HMACSHA256.byteCount])
            let derived = UnsafeMutableRawBufferPointer(rebasing: scratch[HMACSHA256.byteCount...])
            HKDF.extract(salt: handshakeHash, isk, UnsafeRawBufferPointer(start: nil, count: 0), into: prk)
            let labels = [Label.receiverConfirm, Label.senderToReceiver, Label.receiverToSender, Label.senderConfirm]
            for (index, label) in labels.enumerated() {
                let range = (index * SessionKeys.keyByteCount)..<((index + 1) * SessionKeys.keyByteCount)
                HKDF.expand(pseudorandomKey: UnsafeRawBufferPointer(prk), info: label,
                            intoBlock: UnsafeMutableRawBufferPointer(rebasing: derived[range]))
            }
            return SessionKeys(keeping: UnsafeRawBufferPointer(derived), in: arena)
        }
    }

    /// `HMAC(key, digest)` into `output` (32 bytes of guarded memory): `tagR` with the
    /// receiver's confirmation key over `HHt`, `tagS` with the sender's over `TH1`.
    static func writeTag(key: SessionSecret, over digest: SHA256.Digest, into output: UnsafeMutableRawBufferPointer) {
        key.withUnsafeBytes { key in SessionKeys.writeHelloTag(helloKey: key, handshakeHash: digest, into: output) }
    }

    /// Whether `presented` is `HMAC(key, digest)`, compared in constant time; the expected tag
    /// is a temporary of `arena`.
    static func tagMatches(_ presented: [UInt8], key: SessionSecret, over digest: SHA256.Digest, arena: SessionArena) -> Bool {
        arena.withScratch(byteCount: HMACSHA256.byteCount) { expected in
            writeTag(key: key, over: digest, into: expected)
            return presented.withUnsafeBytes { ConstantTime.equal($0, UnsafeRawBufferPointer(expected)) }
        }
    }
}

extension SessionKeys {
    /// The typed way's receiver confirmation key (Spec 4.5), kept where the QR way keeps `helloKey`.
    var receiverConfirmKey: SessionSecret { helloKey }
    /// The typed way's sender confirmation key (Spec 4.5), kept where the QR way keeps `codeKey`.
    var senderConfirmKey: SessionSecret { codeKey }
}

extension Transcript {
    /// `TH0t = SHA-256("AH4 typed transcript" | pakeInit frame)` (Spec 4.5).
    init(pakeInit frame: [UInt8]) {
        self.init(digest: SHA256.digest(TypedKeySchedule.Label.transcript, frame))
    }
}
