/// At most `perSecond` hellos handed to the session in any one second (Spec 11.6): each costs
/// the session one X25519, so a flood by someone who saw the QR costs the sender a bounded
/// amount of work, and the rest of the hellos wait, unread, in order of arrival.
struct HelloRateGate {
    /// When the last `perSecond` hellos were handed over, oldest first (a ring).
    private var handOvers: [ContinuousClock.Instant] = []
    private var oldest = 0
    let perSecond: Int

    init(perSecond: Int) {
        self.perSecond = max(1, perSecond)
    }

    /// `nil` when a hello may go now; otherwise when the next one may.
    func nextOpening(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard handOvers.count == perSecond else { return nil }
        let opening = handOvers[oldest] + .seconds(1)
        return opening <= now ? nil : opening
    }

    /// Records a hello handed over at `now`.
    mutating func record(_ now: ContinuousClock.Instant) {
        if handOvers.count < perSecond {
            handOvers.append(now)
        } else {
            handOvers[oldest] = now
            oldest = (oldest + 1) % perSecond
        }
    }
}
