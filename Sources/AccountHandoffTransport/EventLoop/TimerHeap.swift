/// Something with deadlines that the loop wakes when one may have passed. Wake-ups are hints:
/// the target checks its own deadlines against `now`, so a stale wake-up is harmless and a
/// deadline that moved needs no cancellation, only a new ``EventLoop/wake(_:at:)``.
protocol DeadlineTarget: AnyObject {
    /// Called on the loop thread at or after an instant the target asked for.
    func deadlineReached(now: ContinuousClock.Instant)
}

/// A binary min-heap of (instant, target) wake-ups, in order of instant and then of insertion.
struct TimerHeap {
    private struct Entry {
        var instant: ContinuousClock.Instant
        var order: UInt64
        var target: any DeadlineTarget

        func precedes(_ other: Entry) -> Bool {
            instant < other.instant || (instant == other.instant && order < other.order)
        }
    }

    private var entries: [Entry] = []
    private var inserted: UInt64 = 0

    /// The earliest instant, if any.
    var earliest: ContinuousClock.Instant? { entries.first?.instant }

    /// How many wake-ups are pending.
    var count: Int { entries.count }

    mutating func insert(_ target: any DeadlineTarget, at instant: ContinuousClock.Instant) {
        inserted &+= 1
        entries.append(Entry(instant: instant, order: inserted, target: target))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the targets due at `now`, earliest first.
    mutating func popDue(now: ContinuousClock.Instant) -> [any DeadlineTarget] {
        var due: [any DeadlineTarget] = []
        while let first = entries.first, first.instant <= now {
            due.append(first.target)
            removeFirst()
        }
        return due
    }

    private mutating func removeFirst() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].precedes(entries[smallest]) { smallest = left }
            if right < entries.count, entries[right].precedes(entries[smallest]) { smallest = right }
            guard smallest != parent else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
