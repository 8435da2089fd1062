import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 6.3: "a QR works once" per device, across restarts with ``FileRegistryStorage``. A
/// registry with a file blocks while it reads and writes it, so these tests make every call
/// that reaches the file on the I/O pool (``blocking(_:)``), as an app does; the
/// blocking-call check is on.
@Suite struct RegistryTests {
    /// A fresh directory for one test's registry files.
    final class Directory {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("registry-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// A scan on the I/O pool.
    static func scan(_ payload: SessionPayload, registry: ReceiverRegistry, now: Date = Fixtures.start) async throws -> HandoffReceiver {
        try await blocking {
            try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 5), now: now, registry: registry).receiver
        }
    }

    /// A start on the I/O pool.
    static func start(seed: UInt64 = 1, registry: SenderRegistry) async throws -> HandoffSender {
        try await blocking {
            try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                    random: InsecureDeterministicRandom(seed: seed), now: Fixtures.start, registry: registry)
        }
    }

    /// A registry kept in the file at `path`, read on the I/O pool.
    static func receivers(_ path: String) async throws -> ReceiverRegistry {
        try await blocking { try ReceiverRegistry(storage: FileRegistryStorage(path: path)) }
    }

    /// A registry kept in the file at `path`, read on the I/O pool.
    static func senders(_ path: String) async throws -> SenderRegistry {
        try await blocking { try SenderRegistry(storage: FileRegistryStorage(path: path)) }
    }

    // MARK: Receiver registry

    @Test func aQRWorksOnceAndTheClaimSurvivesARestart() async throws {
        let directory = try Directory()
        let path = directory.path("receiver")
        let payload = try SessionPair().sender.payload
        let registry = try await Self.receivers(path)
        _ = try await Self.scan(payload, registry: registry)
        #expect(registry.hasClaimed(payload.transferID))
        await #expect(throws: HandoffError.alreadyScanned) { try await Self.scan(payload, registry: registry) }

        let restarted = try await Self.receivers(path)
        #expect(restarted.hasClaimed(payload.transferID))
        await #expect(throws: HandoffError.alreadyScanned) { try await Self.scan(payload, registry: restarted) }
        // Another QR is not affected.
        let other = try SessionPair(seed: 2).sender.payload
        _ = try await Self.scan(other, registry: restarted)
        #expect(try await Self.receivers(path).hasClaimed(other.transferID))
    }

    @Test func aReleasedClaimIsGoneAfterARestartAndTheQRWorksOnceMore() async throws {
        let directory = try Directory()
        let path = directory.path("receiver")
        let payload = try SessionPair().sender.payload
        let registry = try await Self.receivers(path)
        _ = try await Self.scan(payload, registry: registry)
        try await blocking { registry.release(payload.transferID) }
        #expect(!registry.hasClaimed(payload.transferID))
        let restarted = try await Self.receivers(path)
        #expect(!restarted.hasClaimed(payload.transferID))
        _ = try await Self.scan(payload, registry: restarted)
        await #expect(throws: HandoffError.alreadyScanned) { try await Self.scan(payload, registry: restarted) }
        try await blocking { restarted.release(TransferID(bytes: [UInt8](repeating: 9, count: 16))!) }  // unknown: nothing happens
        #expect(restarted.hasClaimed(payload.transferID))
    }

    /// A release made on a task's thread, where the registry may not block: memory forgets
    /// the claim at once, and the file follows on the I/O pool, before the next claim.
    @Test func aReleaseOnATaskIsWrittenWithoutBlockingIt() async throws {
        let directory = try Directory()
        let path = directory.path("receiver")
        let payload = try SessionPair().sender.payload
        let registry = try await Self.receivers(path)
        _ = try await Self.scan(payload, registry: registry)
        let caught = await BlockingCallCheck.collect { registry.release(payload.transferID) }
        #expect(caught == [])
        #expect(!registry.hasClaimed(payload.transferID))
        _ = try await Self.scan(payload, registry: registry)  // the claim is free again, in memory and in the file
        #expect(try await Self.receivers(path).hasClaimed(payload.transferID))
    }

    /// A scan that fails after claiming gives the claim back (Spec 6.3), on disk too.
    @Test func aScanRefusedForALowOrderKeyGivesTheClaimBack() async throws {
        let directory = try Directory()
        let path = directory.path("receiver")
        let payload = SessionPair.payload(expiry: UInt32(Fixtures.startSeconds) + 180, publicKey: [UInt8](repeating: 0, count: 32))
        let registry = try await Self.receivers(path)
        await #expect(throws: HandoffError.lowOrderPublicKey) { try await Self.scan(payload, registry: registry) }
        #expect(!registry.hasClaimed(payload.transferID))
        let restarted = try await Self.receivers(path)
        await #expect(throws: HandoffError.lowOrderPublicKey) { try await Self.scan(payload, registry: restarted) }
    }

    /// Checks before the claim (S1-S3) do not claim.
    @Test func anExpiredScanClaimsNothing() async throws {
        let registry = ReceiverRegistry.inMemory()
        let payload = try SessionPair().sender.payload
        await #expect(throws: HandoffError.expired) { try await Self.scan(payload, registry: registry, now: Fixtures.time(210)) }
        #expect(!registry.hasClaimed(payload.transferID))
    }

    /// S2 comes before S4: an expired QR that was also scanned before is refused as expired.
    @Test func theScanChecksExpiryBeforeTheClaim() async throws {
        let registry = ReceiverRegistry.inMemory()
        let payload = try SessionPair().sender.payload
        _ = try await Self.scan(payload, registry: registry)
        await #expect(throws: HandoffError.expired) { try await Self.scan(payload, registry: registry, now: Fixtures.time(210)) }
        await #expect(throws: HandoffError.invalidClock) {
            try await Self.scan(payload, registry: registry, now: Date(timeIntervalSince1970: .nan))
        }
        await #expect(throws: HandoffError.alreadyScanned) { try await Self.scan(payload, registry: registry) }
    }

    /// Two scans of one QR racing on one device cannot both pass (Spec 6.3).
    @Test func concurrentScansOfOneQRClaimItOnce() async throws {
        let directory = try Directory()
        let registry = try await Self.receivers(directory.path("receiver"))
        let payload = try SessionPair().sender.payload
        let results = Results()
        try await blocking {
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                do {
                    _ = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: UInt64(index)),
                                                 now: Fixtures.start, registry: registry)
                    results.add("scanned")
                } catch {
                    results.add((error as? HandoffError)?.identifier ?? "\(error)")
                }
            }
        }
        #expect(results.sorted == ["alreadyScanned"] * 15 + ["scanned"])
    }

    @Test func pruningForgetsClaimsAnHourAfterTheirExpiryAndPersists() async throws {
        let directory = try Directory()
        let path = directory.path("receiver")
        let payload = try SessionPair().sender.payload
        let expiry = Double(payload.expiry)
        let registry = try await Self.receivers(path)
        _ = try await Self.scan(payload, registry: registry)
        try await blocking { registry.prune(now: Date(timeIntervalSince1970: expiry + 3599.5)) }
        #expect(registry.hasClaimed(payload.transferID))
        try await blocking { registry.prune(now: Date(timeIntervalSince1970: .nan)) }
        #expect(registry.hasClaimed(payload.transferID))
        try await blocking { registry.prune(now: Date(timeIntervalSince1970: expiry + 3600)) }
        #expect(!registry.hasClaimed(payload.transferID))
        #expect(!(try await Self.receivers(path).hasClaimed(payload.transferID)))
    }

    // MARK: Sender registry

    @Test func theSenderRegistryRecordsOutcomesAcrossARestart() async throws {
        let directory = try Directory()
        let path = directory.path("sender")
        let registry = try await Self.senders(path)
        let sender = try await Self.start(registry: registry)
        let id = sender.payload.transferID
        #expect(registry.status(of: id) == .pending)
        #expect(try await Self.senders(path).status(of: id) == .pending)
        try await blocking { _ = try sender.handle(.cancel, now: Fixtures.start) }
        #expect(registry.status(of: id) == .finished(outcomeIdentifier: "cancelled.local"))

        let restarted = try await Self.senders(path)
        #expect(restarted.status(of: id) == .finished(outcomeIdentifier: "cancelled.local"))
        let frame = VectorPrimitives.frameBytes(type: .hello, transferID: id, sequence: 0, body: [UInt8](repeating: 1, count: 64))
        #expect(throws: HandoffError.transferConsumed) { try restarted.admit(frame: frame, now: Fixtures.start) }
        // The same seed and time give the same transfer ID: refused, nothing kept.
        await #expect(throws: HandoffError.transferIDInUse) { try await Self.start(registry: restarted) }
        #expect(restarted.status(of: id) == .finished(outcomeIdentifier: "cancelled.local"))
    }

    /// Spec 6.1: the clock is checked before anything is drawn or registered.
    @Test func aStartWithAnInvalidClockRegistersNothing() async throws {
        let registry = SenderRegistry.inMemory()
        #expect(throws: HandoffError.invalidClock) {
            try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                    random: InsecureDeterministicRandom(seed: 1), now: Date(timeIntervalSince1970: .infinity),
                                    registry: registry)
        }
        let sender = try await Self.start(registry: registry)
        #expect(registry.status(of: sender.payload.transferID) == .pending)
    }

    @Test func aDeliveredButUnconfirmedOutcomeIsRecordedAsSuch() throws {
        let registry = SenderRegistry.inMemory()
        let pair = try SessionPair(senderRegistry: registry)
        try pair.run(until: .credentialSent)
        _ = try pair.send(.transportLost)
        #expect(registry.status(of: pair.sender.payload.transferID)
                == .finished(outcomeIdentifier: "deliveredUnconfirmed.failed.transportLost"))
    }

    /// `admit`: frame decoding first, then unknown, consumed, expired at the end of the receipt
    /// wait, `expiry + 120` (Spec 6.3).
    @Test func admitRefusesInTheSpecsOrder() async throws {
        let registry = SenderRegistry.inMemory()
        let sender = try await Self.start(registry: registry)
        let id = sender.payload.transferID
        let frame = VectorPrimitives.frameBytes(type: .hello, transferID: id, sequence: 0, body: [UInt8](repeating: 1, count: 64))
        #expect(try registry.admit(frame: frame, now: Fixtures.start) == id)
        #expect(try registry.admit(frame: frame, now: Fixtures.time(179.999)) == id)
        #expect(try registry.admit(frame: frame, now: Fixtures.time(180)) == id)  // a receipt may still come
        #expect(try registry.admit(frame: frame, now: Fixtures.time(299.999)) == id)
        #expect(throws: HandoffError.expired) { try registry.admit(frame: frame, now: Fixtures.time(300)) }
        #expect(throws: HandoffError.invalidClock) { try registry.admit(frame: frame, now: Date(timeIntervalSince1970: .nan)) }
        #expect(throws: HandoffError.malformed(.frameHeader)) { try registry.admit(frame: [1, 2, 3], now: Date(timeIntervalSince1970: .nan)) }
        let unknown = VectorPrimitives.frameBytes(type: .hello, transferID: TransferID(bytes: [UInt8](repeating: 3, count: 16))!,
                                                  sequence: 0, body: [UInt8](repeating: 1, count: 64))
        #expect(throws: HandoffError.unknownTransfer) { try registry.admit(frame: unknown, now: Fixtures.time(10_000)) }
        _ = try sender.handle(.cancel, now: Fixtures.start)
        #expect(throws: HandoffError.transferConsumed) { try registry.admit(frame: frame, now: Fixtures.time(10_000)) }
        registry.prune(now: Fixtures.time(180 + 3599))
        #expect(registry.status(of: id) != nil)
        registry.prune(now: Fixtures.time(180 + 3600))
        #expect(registry.status(of: id) == nil)
        #expect(throws: HandoffError.unknownTransfer) { try registry.admit(frame: frame, now: Fixtures.start) }
    }

    // MARK: Storage that cannot be used

    @Test func aSymbolicLinkAtTheRegistryPathIsRefused() async throws {
        let directory = try Directory()
        let target = directory.path("target")
        try Data("AccountHandoff registry v2\n".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        await #expect(throws: HandoffError.registryUnavailable(.notARegularFile)) { try await Self.receivers(link) }
        await #expect(throws: HandoffError.registryUnavailable(.notARegularFile)) { try await Self.senders(link) }
    }

    /// A link planted after the registry loaded: the claim is refused and not kept, and the
    /// link's target is not written through.
    @Test func aSymbolicLinkPlantedLaterIsNotWrittenThrough() async throws {
        let directory = try Directory()
        let path = directory.path("receiver")
        let registry = try await Self.receivers(path)
        let target = directory.path("victim")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let payload = try SessionPair().sender.payload
        await #expect(throws: HandoffError.registryUnavailable(.notARegularFile)) { try await Self.scan(payload, registry: registry) }
        #expect(!registry.hasClaimed(payload.transferID))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
    }

    @Test func aFIFOOrADirectoryAtTheRegistryPathIsRefused() async throws {
        let directory = try Directory()
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        await #expect(throws: HandoffError.registryUnavailable(.notARegularFile)) { try await Self.receivers(fifo) }
        await #expect(throws: HandoffError.registryUnavailable(.notARegularFile)) { try await Self.senders(fifo) }
        let folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        await #expect(throws: HandoffError.registryUnavailable(.notARegularFile)) { try await Self.receivers(folder) }
    }

    static let corruptContents: [String] = [
        "garbage\n",
        "AccountHandoff registry v1\n",
        "AccountHandoff registry v2",  // no final newline
        "AccountHandoff registry v2\n00112233445566778899aabbccddeeff 1800000180\n",  // two fields
        "AccountHandoff registry v2\n00112233445566778899aabbccddeeff 1800000180 - extra\n",
        "AccountHandoff registry v2\n00112233445566778899AABBCCDDEEFF 1800000180 -\n",  // upper-case hex
        "AccountHandoff registry v2\n00112233445566778899aabbccddee 1800000180 -\n",  // 15 bytes
        "AccountHandoff registry v2\n00112233445566778899aabbccddeeff 01800000180 -\n",  // non-canonical expiry
        "AccountHandoff registry v2\n00112233445566778899aabbccddeeff 4294967296 -\n",  // expiry > u32
        "AccountHandoff registry v2\n00112233445566778899aabbccddeeff 1800000180 \n",  // empty outcome
        "AccountHandoff registry v2\n00112233445566778899aabbccddeeff 1800000180 a b\n",
        "AccountHandoff registry v2\n\n",
    ]

    @Test func aCorruptFileIsRefusedAsCorrupt() async throws {
        let directory = try Directory()
        let path = directory.path("corrupt")
        for contents in Self.corruptContents {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            await #expect(throws: HandoffError.registryUnavailable(.corrupt), "\(contents.debugDescription)") {
                try await Self.receivers(path)
            }
            await #expect(throws: HandoffError.registryUnavailable(.corrupt), "\(contents.debugDescription)") {
                try await Self.senders(path)
            }
        }
        try Data([0x41, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))  // not UTF-8
        await #expect(throws: HandoffError.registryUnavailable(.corrupt)) { try await Self.receivers(path) }
    }

    @Test func aWellFormedFileLoads() async throws {
        let directory = try Directory()
        let path = directory.path("good")
        try Data("AccountHandoff registry v2\n00112233445566778899aabbccddeeff 1800000180 cancelled.local\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let registry = try await Self.senders(path)
        let id = TransferID(bytes: Array(0x00...0xff).filter { $0 % 0x11 == 0 }.map { UInt8($0) })!
        #expect(registry.status(of: id) == .finished(outcomeIdentifier: "cancelled.local"))
        let absent = directory.path("absent")
        #expect(try await blocking { try FileRegistryStorage(path: absent).load() } == [])
    }

    @Test func aRegistryThatCannotWriteRefusesTheScanAndTheStart() async throws {
        let directory = try Directory()
        let path = directory.path("missing-directory/registry")
        let receivers = try await Self.receivers(path)
        let payload = try SessionPair().sender.payload
        await #expect(throws: HandoffError.registryUnavailable(.unwritable(errno: ENOENT))) { try await Self.scan(payload, registry: receivers) }
        #expect(!receivers.hasClaimed(payload.transferID))
        let senders = try await Self.senders(path)
        await #expect(throws: HandoffError.registryUnavailable(.unwritable(errno: ENOENT))) { try await Self.start(registry: senders) }
    }

    /// The file holds transfer IDs, expiries and outcomes only (mode 0600), never a secret.
    @Test func theFileIsPrivateAndHoldsNoSecret() async throws {
        let directory = try Directory()
        let path = directory.path("sender")
        let registry = try await Self.senders(path)
        let sender = try await Self.start(seed: 1, registry: registry)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "AccountHandoff registry v2\n\(sender.payload.transferID) \(sender.payload.expiry) -\n")
        let stream = Fixtures.randomBytes(seed: 1, count: 64)
        #expect(!text.contains(Hex.encode(Array(stream[0..<32]))))
        #expect(!text.contains(Hex.encode(Array(stream[32..<64]))))
        #expect(!text.contains(Hex.encode(sender.payload.commitment)))
    }
}

/// Results collected by concurrent iterations.
private final class Results: @unchecked Sendable {
    // Safety of @unchecked Sendable: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [String] = []

    func add(_ value: String) {
        lock.lock()
        defer { lock.unlock() }
        values.append(value)
    }

    var sorted: [String] {
        lock.lock()
        defer { lock.unlock() }
        return values.sorted()
    }
}

private func * (values: [String], count: Int) -> [String] { Array([[String]](repeating: values, count: count).joined()) }
