import AccountHandoff

/// CPace and typed-code primitives for test vectors and known-answer tests (Spec 12), with
/// secrets in and out as plain arrays, built on the library's `package` CPace functions: an
/// app cannot reach them, and this is the only place that hands out `K`.
extension VectorPrimitives {
    /// `prepend_len(bytes)`: LEB128 length, then the bytes.
    package static func cpacePrependLength(_ bytes: [UInt8]) -> [UInt8] { LengthValue.prepended(bytes) }

    /// `lv_cat(parts...)`.
    package static func cpaceLengthValueConcatenation(_ parts: [[UInt8]]) -> [UInt8] { LengthValue.concatenated(parts) }

    /// `o_cat(first, second)`.
    package static func cpaceOrderedConcatenation(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        CPace.orderedConcatenation(first, second)
    }

    /// Whether `first` is lexicographically larger than `second` (the order of `o_cat`).
    package static func cpaceLexicographicallyLarger(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        CPace.lexicographicallyLarger(first, second)
    }

    /// `len_zpad` of the generator string for a password of `count` bytes.
    package static func cpaceZeroPaddingLength(passwordByteCount count: Int) -> Int {
        CPace.zeroPaddingLength(passwordByteCount: count)
    }

    /// `generator_string(DSI, PRS, CI, sid, 128)`.
    package static func cpaceGeneratorString(password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8]) -> [UInt8] {
        let frame = CPace.generatorStringFrame(passwordByteCount: password.count, channelIdentifier: channelIdentifier,
                                               sessionID: sessionID)
        return frame.head + password + frame.tail
    }

    /// `SHA-512(bytes)`.
    package static func sha512(_ bytes: [UInt8]) -> [UInt8] { SHA512.hash(bytes) }

    /// `calculate_generator(PRS, CI, sid)`, encoded.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    package static func cpaceGenerator(password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8]) throws(HandoffError) -> [UInt8] {
        let arena = try SessionArena(byteCount: SHA512.byteCount)
        defer { arena.end() }
        var generator = [UInt8](repeating: 0, count: Ristretto255.elementByteCount)
        password.withUnsafeBytes { password in
            generator.withUnsafeMutableBytes { generator in
                CPace.calculateGenerator(password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                                         into: generator, arena: arena)
            }
        }
        return generator
    }

    /// `sample_scalar()` from `random`: the reduced scalar.
    ///
    /// - Throws: `keyDerivationFailed` when every draw reduces to zero.
    package static func cpaceSampleScalar(from random: RandomSource) throws(HandoffError) -> [UInt8] {
        let arena = try SessionArena(byteCount: CPace.scalarDrawByteCount)
        defer { arena.end() }
        return try CPace.sampleScalar(from: random, arena: arena).revealedBytes()
    }

    /// `scalar_mult(y, g)` for an encoded element `g`.
    ///
    /// - Throws: `keyDerivationFailed` when the product is the identity.
    package static func cpaceScalarMult(scalar: [UInt8], element: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard scalar.count == Ristretto255.scalarByteCount, element.count == Ristretto255.elementByteCount else {
            throw .keyDerivationFailed
        }
        return try scalar.withUnsafeBytes { scalar in element.withUnsafeBytes { element in
            Result { () throws(HandoffError) in try CPace.scalarMult(scalar: scalar, generator: element).bytes }
        } }.get()
    }

    /// `K = scalar_mult_vfy(y, X)` with the draft's abort: what ``CPaceRun`` never returns.
    ///
    /// - Throws: `invalidPakeShare` when `X` is not an element or `K` is the identity.
    package static func cpaceSharedPoint(scalar: [UInt8], share: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard let share = CPaceShare(bytes: share) else { throw .invalidPakeShare }
        var k = [UInt8](repeating: 0, count: Ristretto255.elementByteCount)
        try scalar.withUnsafeBytes { scalar in
            k.withUnsafeMutableBytes { k in
                Result { () throws(HandoffError) in try CPace.scalarMultVerified(scalar: scalar, share: share, into: k) }
            }
        }.get()
        return k
    }

    /// `transcript_ir(Ya, ADa, Yb, ADb)`; `nil` unless both shares have 32 bytes.
    package static func cpaceInitiatorResponderTranscript(ya: [UInt8], ada: [UInt8], yb: [UInt8], adb: [UInt8]) -> [UInt8]? {
        guard let initiator = CPaceShare(bytes: ya), let responder = CPaceShare(bytes: yb) else { return nil }
        return CPace.initiatorResponderTranscript(initiatorShare: initiator, initiatorData: ada, responderShare: responder,
                                                  responderData: adb)
    }

    /// `transcript_oc(Ya, ADa, Yb, ADb)`; `nil` unless both shares have 32 bytes.
    package static func cpaceOrderedTranscript(ya: [UInt8], ada: [UInt8], yb: [UInt8], adb: [UInt8]) -> [UInt8]? {
        guard let initiator = CPaceShare(bytes: ya), let responder = CPaceShare(bytes: yb) else { return nil }
        return CPace.orderedTranscript(initiatorShare: initiator, initiatorData: ada, responderShare: responder, responderData: adb)
    }

    /// `SHA-512(lv_cat(DSI || "_ISK", sid, K) || transcript)` for any transcript (the draft's
    /// `ISK_SY` uses `transcript_oc`).
    package static func cpaceIntermediateSessionKey(sessionID: [UInt8], k: [UInt8], transcript: [UInt8]) throws(HandoffError) -> [UInt8] {
        try k.withUnsafeBytes { k in
            Result { () throws(HandoffError) in
                try CPace.intermediateSessionKey(sessionID: sessionID, k: k, transcript: transcript).revealedBytes()
            }
        }.get()
    }

    /// `sid_output = SHA-512("CPaceSidOutput" || transcript)`.
    package static func cpaceSessionIDOutput(transcript: [UInt8]) -> [UInt8] { CPace.sessionIDOutput(transcript: transcript) }

    /// A run with a chosen scalar (the draft's `ya`, `yb`), through the run's own code.
    ///
    /// - Throws: as ``CPaceRun/init(role:password:channelIdentifier:sessionID:random:)``.
    package static func cpaceRun(role: CPaceRun.Role, password: [UInt8], channelIdentifier: [UInt8], sessionID: [UInt8],
                                 scalar: [UInt8]) throws(HandoffError) -> CPaceRun {
        try CPaceRun(role: role, password: SecretBytes(copying: password), channelIdentifier: channelIdentifier,
                     sessionID: sessionID, scalar: SecretBytes(copying: scalar))
    }
}
