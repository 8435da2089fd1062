/// The CPace functions of the suite CPACE-RISTR255-SHA512 (draft-irtf-cfrg-cpace as of commit
/// 8fb4056e1b92 of cfrg/draft-irtf-cfrg-cpace; Spec 12.6): the group is ristretto255 and the
/// hash SHA-512, both through libsodium. ``CPaceRun`` puts them together for one party.
///
/// Secrets never leave guarded memory: the password is hashed where it lies, the generator,
/// the scalar and `K` are written into guarded buffers, and `K` is only ever hashed into the
/// intermediate session key, never returned (the draft: an implementation MUST NOT expose K).
package enum CPace {
    /// `G.DSI` of ristretto255.
    package static let domainSeparator = Array("CPaceRistretto255".utf8)
    /// `G.DSI || "_ISK"`, the first field of the ISK hash.
    static let intermediateKeyLabel = domainSeparator + Array("_ISK".utf8)
    /// The prefix of `sid_output`.
    static let sessionIDOutputLabel = Array("CPaceSidOutput".utf8)
    /// The two bytes `o_cat` puts first.
    static let orderedConcatenationLabel = Array("oc".utf8)
    /// Bytes drawn from the random source for one scalar before reduction.
    package static let scalarDrawByteCount = Ristretto255.wideScalarByteCount
    /// How many draws a scalar may take before the source is deemed broken (a draw is
    /// rejected only when it reduces to zero: probability about 2^-252).
    static let maximumScalarDraws = 64

    /// The length of `zero_bytes(len_zpad)` in the generator string: what fills SHA-512's
    /// first 128-byte block after the domain separator and the password.
    package static func zeroPaddingLength(passwordByteCount: Int) -> Int {
        max(0, SHA512.blockByteCount - 1 - (LengthValue.length(passwordByteCount).count + passwordByteCount)
            - LengthValue.prepended(domainSeparator).count)
    }

    /// `generator_string(DSI, PRS, CI, sid, 128)` = `lv_cat(DSI, PRS, zero_bytes(len_zpad), CI, sid)`
    /// split around the password's bytes: `head | PRS | tail`, so that the password is hashed
    /// from guarded memory and never copied into the string.
    package static func generatorStringFrame(passwordByteCount: Int, channelIdentifier: [UInt8],
                                     sessionID: [UInt8]) -> (head: [UInt8], tail: [UInt8]) {
        let padding = [UInt8](repeating: 0, count: zeroPaddingLength(passwordByteCount: passwordByteCount))
        let head = LengthValue.prepended(domainSeparator) + LengthValue.length(passwordByteCount)
        let tail = LengthValue.concatenated([padding, channelIdentifier, sessionID])
        return (head, tail)
    }

    /// `calculate_generator`: `element_derivation(SHA-512(generator_string(DSI, PRS, CI, sid, 128)))`,
    /// written into `generator` (32 bytes of guarded memory). The 64-byte hash is a temporary
    /// of `arena`, wiped when the call returns.
    package static func calculateGenerator(password: UnsafeRawBufferPointer, channelIdentifier: [UInt8], sessionID: [UInt8],
                                           into generator: UnsafeMutableRawBufferPointer, arena: SessionArena) {
        let frame = generatorStringFrame(passwordByteCount: password.count, channelIdentifier: channelIdentifier,
                                         sessionID: sessionID)
        arena.withScratch(byteCount: SHA512.byteCount) { hash in
            let hasher = SHA512()
            hasher.update(frame.head)
            hasher.update(password)
            hasher.update(frame.tail)
            hasher.finalize(into: hash)
            Ristretto255.elementFromHash(UnsafeRawBufferPointer(hash), into: generator)
        }
    }

    /// `sample_scalar`: 64 bytes from `random` (a temporary of `arena`), reduced modulo the
    /// group order; a draw that reduces to zero is drawn again (Spec 12.6). The result is in
    /// guarded memory of its own.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` after ``maximumScalarDraws`` zero draws
    ///   (only a broken random source gives them); ``HandoffError/secureMemoryUnavailable(_:)``.
    package static func sampleScalar(from random: RandomSource, arena: SessionArena) throws(HandoffError) -> SecretBytes {
        let scalar = try SecretBytes(zeroedCount: Ristretto255.scalarByteCount)
        let drawn = arena.withScratch(byteCount: scalarDrawByteCount) { wide in
            for _ in 0..<maximumScalarDraws {
                random.fill(wide)
                let nonZero = scalar.withUnsafeMutableBytes { reduced in
                    Ristretto255.reduce(UnsafeRawBufferPointer(wide), into: reduced)
                    return !ConstantTime.isZero(UnsafeRawBufferPointer(reduced))
                }
                if nonZero { return true }
            }
            return false
        }
        guard drawn else {
            scalar.wipe()
            throw .keyDerivationFailed
        }
        return scalar
    }

    /// `scalar_mult(y, g)`: the public share `Y = y * g`.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when the product is the identity, which
    ///   happens only if the generator is the identity (no password finds one: probability about 2^-252).
    package static func scalarMult(scalar: UnsafeRawBufferPointer, generator: UnsafeRawBufferPointer) throws(HandoffError) -> CPaceShare {
        var share = [UInt8](repeating: 0, count: CPaceShare.byteCount)
        let made = share.withUnsafeMutableBytes { Ristretto255.multiply(scalar, generator, into: $0) }
        guard made, let result = CPaceShare(bytes: share) else { throw .keyDerivationFailed }
        return result
    }

    /// `scalar_mult_vfy(y, X)` with the draft's abort folded in: `K = y * decode(X)` into `k`
    /// (32 bytes of guarded memory).
    ///
    /// - Throws: ``HandoffError/invalidPakeShare`` when `X` is not the canonical encoding of an
    ///   element, or `K` is the identity (then `k` is all zero).
    package static func scalarMultVerified(scalar: UnsafeRawBufferPointer, share: CPaceShare,
                                   into k: UnsafeMutableRawBufferPointer) throws(HandoffError) {
        let valid = share.bytes.withUnsafeBytes { element in
            Ristretto255.isValidElement(element) && Ristretto255.multiply(scalar, element, into: k)
        }
        guard valid else { throw .invalidPakeShare }
    }

    /// `transcript_ir(Ya, ADa, Yb, ADb) = lv_cat(Ya, ADa) | lv_cat(Yb, ADb)`: the initiator's
    /// message first (the initiator-responder setting this protocol uses).
    package static func initiatorResponderTranscript(initiatorShare: CPaceShare, initiatorData: [UInt8],
                                             responderShare: CPaceShare, responderData: [UInt8]) -> [UInt8] {
        LengthValue.concatenated([initiatorShare.bytes, initiatorData]) + LengthValue.concatenated([responderShare.bytes, responderData])
    }

    /// `transcript_oc(Ya, ADa, Yb, ADb) = o_cat(lv_cat(Ya, ADa), lv_cat(Yb, ADb))`: the symmetric
    /// setting's transcript. This protocol does not use it; the draft's `ISK_SY` vector checks it.
    package static func orderedTranscript(initiatorShare: CPaceShare, initiatorData: [UInt8],
                                  responderShare: CPaceShare, responderData: [UInt8]) -> [UInt8] {
        orderedConcatenation(LengthValue.concatenated([initiatorShare.bytes, initiatorData]),
                             LengthValue.concatenated([responderShare.bytes, responderData]))
    }

    /// `o_cat(a, b)`: `"oc"`, then the lexicographically larger string, then the other.
    package static func orderedConcatenation(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        lexicographicallyLarger(first, second)
            ? orderedConcatenationLabel + first + second : orderedConcatenationLabel + second + first
    }

    /// Whether `first > second` byte by byte, a longer string winning over its own prefix.
    package static func lexicographicallyLarger(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        for (a, b) in zip(first, second) where a != b { return a > b }
        return first.count > second.count
    }

    /// `ISK = SHA-512(lv_cat(DSI || "_ISK", sid, K) || transcript)`, in guarded memory; `K`
    /// is read where it lies.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    package static func intermediateSessionKey(sessionID: [UInt8], k: UnsafeRawBufferPointer,
                                       transcript: [UInt8]) throws(HandoffError) -> SecretBytes {
        let key = try SecretBytes(zeroedCount: SHA512.byteCount)
        key.withUnsafeMutableBytes { output in
            let hasher = SHA512()
            hasher.update(LengthValue.prepended(intermediateKeyLabel))
            hasher.update(LengthValue.prepended(sessionID))
            hasher.update(LengthValue.length(k.count))
            hasher.update(k)
            hasher.update(transcript)
            hasher.finalize(into: output)
        }
        return key
    }

    /// `sid_output = SHA-512("CPaceSidOutput" || transcript)`: a public session identifier both
    /// parties can compute after a run.
    package static func sessionIDOutput(transcript: [UInt8]) -> [UInt8] {
        SHA512.hash(sessionIDOutputLabel, transcript)
    }
}
