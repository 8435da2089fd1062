/// The peers of one QR's sender session (Spec 6.7): the connection whose hello authenticated
/// first, the connections that presented a byte-identical copy of it, and the one the session
/// binds to for good once an authenticated frame of the receiver arrives on it.
struct CandidateConnections {
    private(set) var acceptedHello: [UInt8]?
    private(set) var candidates: [FramePeer] = []
    private(set) var bound: FramePeer?
    /// Every frame the session sent so far, in order: a new candidate gets them all.
    private(set) var sentSoFar: [[UInt8]] = []

    var hasAcceptedHello: Bool { acceptedHello != nil }

    /// Who gets a frame the session sends: the bound peer, or every candidate until one is bound.
    var recipients: [FramePeer] { bound.map { [$0] } ?? candidates }

    func isCandidate(_ peer: FramePeer) -> Bool { candidates.contains(peer) }

    mutating func recordSent(_ frame: [UInt8]) { sentSoFar.append(frame) }

    /// The first hello authenticated on `peer`.
    mutating func accept(hello: [UInt8], from peer: FramePeer) {
        acceptedHello = hello
        candidates = [peer]
    }

    /// The typed way paired on `peer` (Spec 6.8): it is the session's peer for good; no hello
    /// was accepted, so no copy of one can make another connection a candidate.
    mutating func bindTyped(_ peer: FramePeer) {
        acceptedHello = []
        candidates = [peer]
        bound = peer
    }

    /// A copy of the accepted hello arrived on `peer`: it becomes a candidate unless the
    /// session is bound, the peer already is one, or `limit` candidates exist.
    mutating func admitCandidate(_ peer: FramePeer, hello: [UInt8], limit: Int) -> Bool {
        guard let acceptedHello, hello == acceptedHello, bound == nil, !candidates.contains(peer),
              candidates.count < limit else { return false }
        candidates.append(peer)
        return true
    }

    /// After a frame from `peer`: binds the session to it for good when the frame
    /// authenticated as the receiver's (it requested the credential, or ended the session) and
    /// `peer` is a candidate. Returns the other candidates, to be disconnected, or `nil`.
    mutating func bindIfDecisive(_ peer: FramePeer, frame: [UInt8], actions: [SenderAction]) -> [FramePeer]? {
        guard bound == nil, candidates.contains(peer), frame != acceptedHello else { return nil }
        let decisive = actions.contains { action in
            switch action {
            case .requestCredential, .finished: true
            case .send, .reply, .askForCode, .codeMismatch, .anotherDeviceJoined, .ignored, .startTypedRun, .typedCodeRetired,
                 .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: false
            }
        }
        guard decisive else { return nil }
        bound = peer
        let others = candidates.filter { $0 != peer }
        candidates = [peer]
        return others
    }

    /// `peer`'s connection ended. Returns whether the session lost its transport: the bound
    /// peer left, or the last candidate did.
    mutating func lose(_ peer: FramePeer) -> Bool {
        if bound == peer { return true }
        guard let index = candidates.firstIndex(of: peer) else { return false }
        candidates.remove(at: index)
        return candidates.isEmpty
    }
}
