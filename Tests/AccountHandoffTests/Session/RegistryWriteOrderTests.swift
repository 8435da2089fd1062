import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// The registries' one read-modify-write (``RegistryRecords``): edits made on a task's thread
/// are written on the I/O pool, in the order they were made, before any later claim; memory
/// never goes back to a stored state that misses an edit not written yet.
@Suite struct RegistryWriteOrderTests {
    /// Records kept in memory; each write waits until the test lets it through, and is logged.
    final class SteppedStorage: RegistryStorage, @unchecked Sendable {
        // Safety of @unchecked Sendable: every property is only touched under `condition`.
        private let condition = NSCondition()
        private var records: [RegistryRecord] = []
        private var allowed = Int.max
        private var entered = 0
        private var saved: [[TransferID]] = []
        private var failing = false

        func load() throws(RegistryStorageFailure) -> [RegistryRecord] { condition.withLock { records } }

        func save(_ records: [RegistryRecord]) throws(RegistryStorageFailure) {
            condition.lock()
            defer { condition.unlock() }
            if failing { throw .unwritable(errno: ENOSPC) }
            self.records = records
            saved.append(records.map(\.transferID))
        }

        func update(_ change: (inout [RegistryRecord]) -> Bool) throws(RegistryStorageFailure) -> [RegistryRecord] {
            condition.lock()
            entered += 1
            condition.broadcast()
            while entered > allowed { condition.wait() }
            condition.unlock()
            var current = try load()
            guard change(&current) else { return current }
            try save(current)
            return current
        }

        /// From now on, only `count` more updates may go through.
        func hold(after count: Int) { condition.withLock { allowed = entered + count } }
        func letOneMore() { condition.withLock { allowed += 1; condition.broadcast() } }
        /// Whether every write fails from now on (a full disk).
        var writesFail: Bool {
            get { condition.withLock { failing } }
            set { condition.withLock { failing = newValue } }
        }
        func letAll() { condition.withLock { allowed = .max; condition.broadcast() } }
        var updatesEntered: Int { condition.withLock { entered } }
        var writes: [[TransferID]] { condition.withLock { saved } }
    }

    static func payload(_ seed: UInt64) throws -> SessionPayload { try SessionPair(seed: seed).sender.payload }

    @Test func editsOnATaskAreWrittenInOrderBeforeTheNextClaim() async throws {
        let storage = SteppedStorage()
        let registry = try ReceiverRegistry(storage: storage)
        let (a, b, c, d) = (try Self.payload(1), try Self.payload(2), try Self.payload(3), try Self.payload(4))
        try await blocking { for payload in [a, b, c] { try registry.claim(payload) } }
        storage.hold(after: 0)  // the pool's writes wait
        let caught = await BlockingCallCheck.collect {
            registry.release(a.transferID)
            registry.release(b.transferID)
        }
        #expect(caught == [])
        #expect(!registry.hasClaimed(a.transferID) && !registry.hasClaimed(b.transferID))
        storage.letAll()
        try await blocking { try registry.claim(d) }
        let ids = { (payloads: [SessionPayload]) in payloads.map(\.transferID).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) } }
        #expect(Array(storage.writes.suffix(3)) == [ids([b, c]), ids([c]), ids([c, d])])
        #expect([a, b, c, d].map { registry.hasClaimed($0.transferID) } == [false, false, true, true])
    }

    @Test func anEditNotWrittenYetStaysWhenTheStoredRecordsAreReadAgain() async throws {
        let storage = SteppedStorage()
        let registry = try ReceiverRegistry(storage: storage)
        let (a, b) = (try Self.payload(1), try Self.payload(2))
        try await blocking { for payload in [a, b] { try registry.claim(payload) } }
        storage.hold(after: 0)
        registry.release(a.transferID)  // its write waits in the storage
        try await BlockingIOPoolTests.eventually { storage.updatesEntered == 3 }
        registry.release(b.transferID)  // made while the first is being written
        storage.letOneMore()  // the first write lands; the stored records still hold b
        try await BlockingIOPoolTests.eventually { storage.updatesEntered == 4 }
        #expect(!registry.hasClaimed(b.transferID), "memory went back to the stored records")
        storage.letAll()
        try await blocking { try registry.claim(try Self.payload(3)) }
        #expect(!registry.hasClaimed(a.transferID) && !registry.hasClaimed(b.transferID))
    }

    /// A release is best effort (Spec 6.3): when its write fails the stored claim stays, so the
    /// next claim of that QR reads it and is refused; a failed write never makes a QR usable
    /// twice.
    @Test func aReleaseWhoseWriteFailsLeavesTheQRRefused() async throws {
        let storage = SteppedStorage()
        let registry = try ReceiverRegistry(storage: storage)
        let payload = try Self.payload(1)
        try await blocking { try registry.claim(payload) }
        storage.writesFail = true
        try await blocking { registry.release(payload.transferID) }
        #expect(!registry.hasClaimed(payload.transferID))
        storage.writesFail = false
        await #expect(throws: HandoffError.alreadyScanned) { try await blocking { try registry.claim(payload) } }
        #expect(registry.hasClaimed(payload.transferID), "memory took the stored claim back")
    }
}
