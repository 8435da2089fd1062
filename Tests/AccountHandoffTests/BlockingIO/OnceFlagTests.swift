import Foundation
import Testing
@testable import AccountHandoff

/// The set-once flag: set once from any thread, its handlers run once.
@Suite struct OnceFlagTests {
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var current: Int { lock.withLock { value } }
    }

    @Test func onlyTheFirstSetSetsIt() {
        let flag = OnceFlag()
        #expect(!flag.isSet)
        #expect(flag.set())
        #expect(!flag.set())
        #expect(flag.isSet)
    }

    @Test func handlersRunOnceWhenSetAndAtOnceAfterwards() {
        let flag = OnceFlag()
        let count = Count()
        flag.whenSet { count.add() }
        flag.whenSet { count.add() }
        #expect(count.current == 0)
        flag.set()
        flag.set()
        #expect(count.current == 2)
        flag.whenSet { count.add() }
        #expect(count.current == 3)
    }

    @Test func aRemovedHandlerNeverRuns() {
        let flag = OnceFlag()
        let count = Count()
        let key = flag.whenSet { count.add() }
        flag.removeHandler(key)
        flag.set()
        #expect(count.current == 0)
    }

    @Test func setFromManyThreadsAtOnceItIsSetOnce() async {
        let flag = OnceFlag()
        let count = Count()
        flag.whenSet { count.add() }
        let firsts = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 { group.addTask { flag.set() } }
            var wins = 0
            for await won in group where won { wins += 1 }
            return wins
        }
        #expect(firsts == 1)
        #expect(count.current == 1)
    }
}
