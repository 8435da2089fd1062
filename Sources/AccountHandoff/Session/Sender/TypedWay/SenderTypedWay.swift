/// What a sender awaiting its peer holds of the typed way (Spec 6.1): the code it shows, the
/// routes it offers, the wrong guesses and taken names so far, and the pending CPace runs.
///
/// Each pending run holds its scalar `ya` in guarded memory until the run ends: its connection
/// closed (``SenderEvent/typedRunEnded(_:)``), it is older than
/// ``HandoffSender/typedRunDeadlineSeconds``, its code was retired, or the session paired.
struct SenderTypedWay {
    /// One run waiting for its `pakeReply`.
    struct PendingRun {
        let id: TypedRunID
        let route: TypedRoute
        let run: CPaceRun
        /// The run's `pakeInit` frame (the start of its transcript, Spec 4.5).
        let pakeInit: [UInt8]
        /// When the run started (session clock seconds).
        let startedAt: Double
    }

    /// The code shown; wiped when it is retired.
    private(set) var code: TypedCode
    /// The routes the app offers (never empty).
    let routes: Set<TypedRoute>
    /// Wrong guesses so far (Spec 6.1), 0...2 while the typed way is open.
    private(set) var wrongGuesses = 0
    /// Names taken in a row on the local network.
    private(set) var namesTaken = 0
    /// The pending runs, at most ``HandoffSender/maximumPendingTypedRuns``.
    private(set) var runs: [PendingRun] = []

    /// A typed way showing `code`, after `wrongGuesses` under the sending session's earlier QRs.
    init(code: TypedCode, routes: Set<TypedRoute>, wrongGuesses: Int = 0) {
        precondition((0..<HandoffSender.maximumWrongTypedGuesses).contains(wrongGuesses), "a withdrawn typed way is not offered again")
        self.code = code
        self.routes = routes
        self.wrongGuesses = wrongGuesses
    }

    /// Drops every run older than the run deadline (Spec 6.1); their scalars are wiped.
    mutating func dropStaleRuns(now: Double) {
        let deadline = Double(HandoffSender.typedRunDeadlineSeconds)
        for run in runs where now - run.startedAt >= deadline { run.run.wipe() }
        runs.removeAll { now - $0.startedAt >= deadline }
    }

    /// Adds a started run.
    mutating func add(_ run: PendingRun) {
        precondition(runs.count < HandoffSender.maximumPendingTypedRuns, "at most 8 pending runs")
        runs.append(run)
    }

    /// The pending run named by `sid`, if any.
    func run(sessionID: [UInt8]) -> PendingRun? { runs.first { $0.id.bytes == sessionID } }

    /// Ends one run (its connection closed); its scalar is wiped.
    mutating func endRun(_ id: TypedRunID) {
        for run in runs where run.id == id { run.run.wipe() }
        runs.removeAll { $0.id == id }
    }

    /// Wipes every pending run.
    mutating func wipeRuns() {
        for run in runs { run.run.wipe() }
        runs.removeAll()
    }

    /// A wrong guess (Spec 6.1): every run is wiped and the count rises; returns the new count.
    mutating func countWrongGuess() -> Int {
        wipeRuns()
        wrongGuesses += 1
        return wrongGuesses
    }

    /// A name taken on the local network: returns the count in a row.
    mutating func countNameTaken() -> Int {
        wipeRuns()
        namesTaken += 1
        return namesTaken
    }

    /// Retires the code (wiped) and shows `next` instead.
    mutating func replaceCode(with next: TypedCode) {
        wipeRuns()
        code.wipe()
        code = next
    }

    /// Wipes everything it holds (the typed way is withdrawn or the session ends).
    mutating func wipe() {
        wipeRuns()
        code.wipe()
    }
}
