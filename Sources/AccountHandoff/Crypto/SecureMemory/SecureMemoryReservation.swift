/// Slots of a ``SecureMemoryPool`` set aside for one holder, a handoff session, from its
/// start to its end (Spec 8.5): admission takes them all at once, so a session that starts
/// can finish.
///
/// ``SecureMemoryPool/reserve(_:)`` maps whatever slabs the ``SecureMemoryDemand`` needs
/// before it returns, or throws and sets nothing aside. While the reservation is bound to the
/// running code (``bind(_:)``), every guarded allocation draws one of its slots: a slot of the
/// request's own size class, or of the next larger class with one left. A released slot goes
/// back to the reservation, not to the pool, until ``end()`` hands every unused slot back;
/// slots still drawn then stay live until they are released (a delivered password belongs to
/// the app). Only an allocation for which the reservation has no slot left (an
/// ``SecureMemoryReservationUsage/overdrafts``) goes to the pool's shared slots, which can
/// run out.
///
/// The value holds no memory itself: the pool keeps the books under its lock, so a slot may
/// be released on any thread. Dropping the last reference ends it too.
package final class SecureMemoryReservation: Sendable {
    /// The reservation that guarded allocations on this thread (or task) draw from, if any:
    /// the innermost synchronous ``bind(_:)`` on this thread, else the task's asynchronous one.
    package static var current: SecureMemoryReservation? {
        if let bound = ThreadBinding.current { return bound }
        return boundToTask
    }

    /// Bound by the asynchronous ``bind(isolation:_:)``, which spans suspensions and threads.
    @TaskLocal private static var boundToTask: SecureMemoryReservation?

    let pool: SecureMemoryPool
    /// The pool's number for it, never reused; 0 for a reservation that sets nothing aside
    /// (the fuzzing build's heap allocator).
    let id: UInt64
    /// What it set aside.
    package let demand: SecureMemoryDemand

    init(pool: SecureMemoryPool, id: UInt64, demand: SecureMemoryDemand) {
        self.pool = pool
        self.id = id
        self.demand = demand
    }

    deinit {
        pool.forgetReservation(id)
    }

    /// Hands every slot not drawn now back to the pool. Idempotent; allocations bound to an
    /// ended reservation use the pool's shared slots.
    package func end() {
        pool.endReservation(id)
    }

    /// What has been drawn from it so far.
    package var usage: SecureMemoryReservationUsage {
        pool.usage(ofReservation: id)
    }

    /// Runs `body` with this reservation bound: guarded allocations `body` makes on this task
    /// or thread draw from it.
    ///
    /// `body` runs on this thread from start to end, so the binding is a thread-specific value
    /// (a task-local one would be allocated on every step of a session).
    package func bind<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try ThreadBinding.with(self, body)
    }

    /// Runs `body` with this reservation bound, across its suspensions: guarded allocations
    /// made by `body` and the tasks it creates draw from it.
    package func bind<Result>(isolation: isolated (any Actor)? = #isolation,
                              _ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$boundToTask.withValue(self, operation: body)
    }
}

/// What a ``SecureMemoryReservation`` has handed out; for tests that prove a session never
/// needs more than it reserved, and for the benchmark.
package struct SecureMemoryReservationUsage: Hashable, Sendable {
    /// Slots drawn and not yet released, per size class.
    package var drawn: [Int]
    /// The most slots drawn at once, per size class.
    package var peakDrawn: [Int]
    /// Allocations made while it was bound and open for which it had no slot left; they went
    /// to the pool's shared slots. Zero for a demand that is counted right.
    package var overdrafts: Int
    /// Whether ``SecureMemoryReservation/end()`` ran.
    package var isEnded: Bool

    /// Nothing drawn.
    static let idle = SecureMemoryReservationUsage(
        drawn: [Int](repeating: 0, count: SlotLayout.sizeClasses.count),
        peakDrawn: [Int](repeating: 0, count: SlotLayout.sizeClasses.count), overdrafts: 0, isEnded: false)
}

/// One guarded allocation as handed out: where it is, the byte count to release it with
/// (the request's, or more when it took a slot of a larger size class), and the reservation
/// that gets the slot back (0: none).
package struct GuardedAllocation {
    package let pointer: UnsafeMutableRawPointer
    package let releaseCount: Int
    package let reservationID: UInt64
}
