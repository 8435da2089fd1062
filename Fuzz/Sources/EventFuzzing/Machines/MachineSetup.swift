import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation

/// How a machine world starts, from the script's header.
///
/// `header[0] % 16`: 0-9 copies of the process's started sessions without registries (the fast
/// path most inputs take); 10-11 the same with in-memory registries; 12 with registry files
/// (`header[1]` puts a file, link, directory or FIFO at the path first); 13 with failing
/// registry storage (`header[1]` is the plan); 14 a real start with another lifetime and skew
/// tolerance (`header[1]`, `header[2]`); 15 a real start at another time (`header[1...3]`),
/// which may be refused as an invalid clock. A start the library refuses (a registry that
/// cannot be read, a transfer already registered, a clock out of range) is itself what the
/// input tests; the world then goes on with copies without registries.
struct MachineSetup {
    let header: [UInt8]

    struct Started {
        let sender: HandoffSender
        let receiver: HandoffReceiver
        let hello: [UInt8]
        var senderRegistry: SenderRegistry?
        var receiverRegistry: ReceiverRegistry?
        /// The receiver registry's storage when it fails on purpose.
        var faultyReceiverStorage: FaultyRegistryStorage?
        var configuration: ReceiverConfiguration = .standard
        var refusal: HandoffError?
        var start: Date
    }

    func start(_ fixtures: MachineFixtures) throws -> Started {
        let mode = header[0] % 16
        do {
            switch mode {
            case 10, 11:
                return try copies(fixtures, SenderRegistry.inMemory(), ReceiverRegistry.inMemory())
            case 12:
                var senderPath = RegistryFiles.freshPath("sender-registry")
                var receiverPath = RegistryFiles.freshPath("receiver-registry")
                if header[2] & 1 == 0 {
                    senderPath = RegistryFiles.prepare(senderPath, choice: header[1])
                } else {
                    receiverPath = RegistryFiles.prepare(receiverPath, choice: header[1])
                }
                return try copies(fixtures, SenderRegistry(storage: FileRegistryStorage(path: senderPath)),
                                  ReceiverRegistry(storage: FileRegistryStorage(path: receiverPath)))
            case 13:
                let receiverStorage = FaultyRegistryStorage(plan: header[2])
                var started = try copies(fixtures, SenderRegistry(storage: FaultyRegistryStorage(plan: header[1])),
                                         ReceiverRegistry(storage: receiverStorage))
                started.faultyReceiverStorage = receiverStorage
                return started
            case 14:
                let lifetime = UInt32(header[1]) * 3 + UInt32(header[3] & 3)
                let configuration = try SenderConfiguration(lifetime: max(30, min(600, lifetime)))
                let receiving = try ReceiverConfiguration(clockSkewTolerance: UInt32(header[2] % 121))
                return try realStart(fixtures, configuration: configuration, receiving: receiving, at: fixtures.scenario.start)
            case 15:
                let offset = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
                let start: Date = switch offset % 4 {
                case 0: Date(timeIntervalSince1970: -Double(offset))
                case 1: Date(timeIntervalSince1970: Double(UInt32.max) - Double(offset % 1000))
                default: fixtures.scenario.start.addingTimeInterval(Double(offset))
                }
                return try realStart(fixtures, configuration: .standard, receiving: .standard, at: start)
            default:
                return try copies(fixtures, nil, nil)
            }
        } catch let error as HandoffError {
            var started = try copies(fixtures, nil, nil)
            started.refusal = error
            return started
        }
    }

    private func copies(_ fixtures: MachineFixtures, _ senderRegistry: SenderRegistry?,
                        _ receiverRegistry: ReceiverRegistry?) throws -> Started {
        let sender = try fixtures.sender.copyAwaitingHello(registry: senderRegistry)
        let receiver: HandoffReceiver
        do { receiver = try fixtures.receiver.copyAwaitingReveal(registry: receiverRegistry) } catch {
            _ = try? sender.handle(.cancel, now: fixtures.scenario.start)
            throw error
        }
        return Started(sender: sender, receiver: receiver, hello: fixtures.hello,
                       senderRegistry: senderRegistry, receiverRegistry: receiverRegistry, start: fixtures.scenario.start)
    }

    private func realStart(_ fixtures: MachineFixtures, configuration: SenderConfiguration, receiving: ReceiverConfiguration,
                           at start: Date) throws -> Started {
        let scenario = fixtures.scenario
        let senderRegistry = SenderRegistry.inMemory()
        let receiverRegistry = ReceiverRegistry.inMemory()
        let sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous, configuration: configuration,
                                             random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: start,
                                             registry: senderRegistry)
        let scanned: (receiver: HandoffReceiver, step: ReceiverStep)
        do {
            scanned = try HandoffReceiver.scan(payload: sender.payload, configuration: receiving,
                                               random: InsecureDeterministicRandom(seed: scenario.receiverSeed),
                                               now: start, registry: receiverRegistry)
        } catch {
            _ = try? sender.handle(.cancel, now: start)
            throw error
        }
        guard case .send(let hello)? = scanned.step.actions.first else { throw InvariantViolation("a scan sent no hello") }
        return Started(sender: sender, receiver: scanned.receiver, hello: hello, senderRegistry: senderRegistry,
                       receiverRegistry: receiverRegistry, configuration: receiving, start: start)
    }
}
