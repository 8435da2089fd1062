/// One party's side of one CPace run, suite CPACE-RISTR255-SHA512, initiator-responder
/// (Spec 12.6, 12.7): the party's fresh scalar in guarded memory and its public share.
///
/// The generator is computed from the password, `CI` and `sid` when the run starts and wiped
/// as soon as the share is made. ``intermediateSessionKey(peerShare:ownAssociatedData:peerAssociatedData:)``
/// computes `K` in guarded memory, hashes it into `ISK` and wipes it; `K` is never returned.
///
/// - Warning: A run is single-use, as the draft requires of its scalars: once it has produced
///   an `ISK` its scalar is wiped, and asking again traps. Draw a new run for every attempt.
package struct CPaceRun: Sendable {
    /// Which message of the run this party sends: the initiator's (`Ya`) comes first.
    package enum Role: Hashable, Sendable {
        /// Party A, whose share is `Ya` (the sending device in the typed mode, Spec 12.7).
        case initiator
        /// Party B, whose share is `Yb` (the receiving device).
        case responder
    }

    /// This party's role.
    package let role: Role
    /// The run's `sid`, bound into the generator and the `ISK`.
    package let sessionID: [UInt8]
    /// This party's public share, to be sent to the other party.
    package let ownShare: CPaceShare
    /// `ya` or `yb`, reduced, never zero.
    private let scalar: SecretBytes

    /// Guarded memory of a run's start: the generator and its 64-byte hash, or before them the
    /// scalar's 64-byte draw, as temporaries of one arena that the start gives back.
    static let startArenaByteCount = Ristretto255.elementByteCount + SHA512.byteCount

    /// Starts a run: `g = calculate_generator(PRS, CI, sid)`, a fresh scalar from `random`,
    /// and the share `y * g`.
    ///
    /// - Parameters:
    ///   - role: Whether this party is the initiator (A) or the responder (B).
    ///   - password: `PRS`, read where it lies (guarded memory); the caller keeps and wipes it.
    ///   - channelIdentifier: `CI` (Spec 12.7).
    ///   - sessionID: `sid` (Spec 12.7).
    ///   - random: The source of the 64 bytes of the scalar (the core draws nothing itself).
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``; ``HandoffError/keyDerivationFailed``
    ///   when the random source gives only zero scalars or the generator is the identity.
    package init(role: Role, password: SecretBytes, channelIdentifier: [UInt8], sessionID: [UInt8],
                 random: RandomSource) throws(HandoffError) {
        let arena = try SessionArena(byteCount: Self.startArenaByteCount)
        defer { arena.end() }
        let scalar = try CPace.sampleScalar(from: random, arena: arena)
        try self.init(role: role, password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                      scalar: scalar, arena: arena)
    }

    /// Starts a run with a given scalar (the draft's known answers give `ya` and `yb`). The run
    /// owns `scalar` from here on and wipes it; on a throw it is wiped already.
    ///
    /// - Throws: as ``init(role:password:channelIdentifier:sessionID:random:)``.
    package init(role: Role, password: SecretBytes, channelIdentifier: [UInt8], sessionID: [UInt8],
                 scalar: SecretBytes) throws(HandoffError) {
        let arena: SessionArena
        do { arena = try SessionArena(byteCount: Self.startArenaByteCount) } catch {
            scalar.wipe()
            throw error
        }
        defer { arena.end() }
        try self.init(role: role, password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
                      scalar: scalar, arena: arena)
    }

    /// The start of both: the generator a temporary of `arena`, wiped once the share is made.
    private init(role: Role, password: SecretBytes, channelIdentifier: [UInt8], sessionID: [UInt8],
                 scalar: SecretBytes, arena: SessionArena) throws(HandoffError) {
        do throws(HandoffError) {
            let share = try arena.withScratch(byteCount: Ristretto255.elementByteCount) {
                (generator) throws(HandoffError) -> CPaceShare in
                password.withUnsafeBytes { password in
                    CPace.calculateGenerator(password: password, channelIdentifier: channelIdentifier,
                                             sessionID: sessionID, into: generator, arena: arena)
                }
                return try scalar.withUnsafeBytes { (scalar) throws(HandoffError) in
                    try CPace.scalarMult(scalar: scalar, generator: UnsafeRawBufferPointer(generator))
                }
            }
            self.role = role
            self.sessionID = sessionID
            self.ownShare = share
            self.scalar = scalar
        } catch {
            scalar.wipe()
            throw error
        }
    }

    /// The run's `ISK` from the other party's share: `K = scalar_mult_vfy(y, peerShare)`, then
    /// `ISK = SHA-512(lv_cat(DSI || "_ISK", sid, K) || transcript_ir(Ya, ADa, Yb, ADb))`.
    /// On success the scalar is wiped (the run is used up).
    ///
    /// - Parameters:
    ///   - peerShare: The share the other party sent.
    ///   - ownAssociatedData: This party's `AD` (empty in this protocol, Spec 12.7).
    ///   - peerAssociatedData: The other party's `AD` (empty in this protocol).
    /// - Returns: The 64-byte `ISK`, in guarded memory; the caller wipes it.
    /// - Throws: ``HandoffError/invalidPakeShare`` when `peerShare` is not an element or `K` is
    ///   the identity: nothing is derived, and the scalar is kept so that the caller decides
    ///   whether the run goes on. ``HandoffError/secureMemoryUnavailable(_:)``.
    /// - Precondition: the run has not produced an `ISK` before.
    package func intermediateSessionKey(peerShare: CPaceShare, ownAssociatedData: [UInt8] = [],
                                        peerAssociatedData: [UInt8] = []) throws(HandoffError) -> SecretBytes {
        let transcript = switch role {
        case .initiator:
            CPace.initiatorResponderTranscript(initiatorShare: ownShare, initiatorData: ownAssociatedData,
                                               responderShare: peerShare, responderData: peerAssociatedData)
        case .responder:
            CPace.initiatorResponderTranscript(initiatorShare: peerShare, initiatorData: peerAssociatedData,
                                               responderShare: ownShare, responderData: ownAssociatedData)
        }
        let key = try withSharedPoint(peerShare) { (k) throws(HandoffError) in
            try CPace.intermediateSessionKey(sessionID: sessionID, k: k, transcript: transcript)
        }
        scalar.wipe()
        return key
    }

    /// Calls `body` with `K = scalar_mult_vfy(y, peerShare)` in guarded memory that is wiped
    /// when `body` returns; `K` never leaves this call.
    ///
    /// - Throws: ``HandoffError/invalidPakeShare``, ``HandoffError/secureMemoryUnavailable(_:)``,
    ///   or what `body` throws.
    func withSharedPoint<Result>(_ peerShare: CPaceShare,
                                 _ body: (UnsafeRawBufferPointer) throws(HandoffError) -> Result) throws(HandoffError) -> Result {
        let arena = try SessionArena(byteCount: Ristretto255.elementByteCount)
        defer { arena.end() }
        return try arena.withScratch(byteCount: Ristretto255.elementByteCount) { (k) throws(HandoffError) -> Result in
            try scalar.withUnsafeBytes { (scalar) throws(HandoffError) in
                try CPace.scalarMultVerified(scalar: scalar, share: peerShare, into: k)
            }
            return try body(UnsafeRawBufferPointer(k))
        }
    }

    /// Wipes the scalar (a run that is abandoned). Idempotent.
    package func wipe() { scalar.wipe() }

    /// Whether the scalar is wiped (the run produced its `ISK` or was abandoned).
    package var isWiped: Bool { scalar.isWiped }
}

extension CPaceRun: CustomStringConvertible {
    /// The role and the public share; never the scalar.
    package var description: String { "CPaceRun(\(role), share \(Hex.encode(ownShare.bytes)))" }
}
