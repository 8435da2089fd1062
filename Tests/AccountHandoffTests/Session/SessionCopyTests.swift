import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// The package's copy hooks (`copyAwaitingHello`, `copyAwaitingReveal`), which let the fuzzers
/// start every input from copies of one started sender and one scanned receiver: a copy is the
/// same session (it sends exactly the frames the original sends), owns its own secrets (ending
/// one leaves the other's intact), and is registered like a new session.
@Suite struct SessionCopyTests {
    /// What one honest run produced, byte for byte.
    struct Run: Equatable {
        var frames: [[UInt8]] = []
        var codes: [ShortCode] = []
        var delivered: [UInt8] = []
        var outcomes: [String] = []
    }

    /// Runs the honest session from the receiver's hello to the sender's receipt.
    static func complete(_ sender: HandoffSender, _ receiver: HandoffReceiver, hello: [UInt8]) throws -> Run {
        var run = Run()
        func absorb(_ step: SenderStep) -> [UInt8]? {
            var sent: [UInt8]?
            for action in step.actions {
                switch action {
                case .send(let frame): sent = frame; run.frames.append(frame)
                case .askForCode: if let code = sender.shortCode { run.codes.append(code) }
                case .finished(let outcome): run.outcomes.append("sender " + outcome.identifier)
                case .reply, .codeMismatch, .requestCredential, .anotherDeviceJoined, .ignored, .startTypedRun, .typedCodeRetired,
                     .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: break
                }
            }
            return sent
        }
        func absorb(_ step: ReceiverStep) -> [UInt8]? {
            var sent: [UInt8]?
            for action in step.actions {
                switch action {
                case .send(let frame): sent = frame; run.frames.append(frame)
                case .showShortCode(let code): run.codes.append(code)
                case .deliverAccount(let imported):
                    run.delivered = imported.credential.revealedBytes()
                    imported.credential.wipe()
                case .finished(let outcome): run.outcomes.append("receiver " + outcome.identifier)
                case .showAccount, .ignored: break
                }
            }
            return sent
        }
        let now = Fixtures.start
        let reveal = try #require(absorb(try sender.handle(.frameReceived(hello), now: now)))
        _ = absorb(try receiver.handle(.frameReceived(reveal), now: now))
        let offer = try #require(absorb(try sender.handle(.codeEntered(sender.shortCode!.digits), now: now)))
        _ = absorb(try receiver.handle(.frameReceived(offer), now: now))
        let accept = try #require(absorb(try receiver.handle(.accept, now: now)))
        _ = absorb(try sender.handle(.frameReceived(accept), now: now))
        let credential = try #require(absorb(try sender.handle(.credentialProvided(Fixtures.secret(Fixtures.password)), now: now)))
        _ = absorb(try receiver.handle(.frameReceived(credential), now: now))
        let receipt = try #require(absorb(try receiver.handle(.importFinished(.imported), now: now)))
        _ = absorb(try sender.handle(.frameReceived(receipt), now: now))
        return run
    }

    static func startSender(registry: SenderRegistry? = nil) throws -> HandoffSender {
        try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                random: InsecureDeterministicRandom(seed: Fixtures.senderSeed), now: Fixtures.start, registry: registry)
    }

    static func scan(_ sender: HandoffSender) throws -> (receiver: HandoffReceiver, hello: [UInt8]) {
        let scanned = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: Fixtures.receiverSeed),
                                               now: Fixtures.start)
        let hello = try #require(scanned.step.actions.first.flatMap { action -> [UInt8]? in
            if case .send(let frame) = action { frame } else { nil }
        })
        return (scanned.receiver, hello)
    }

    @Test func aCopiedSenderAndReceiverRunExactlyTheOriginalsSession() throws {
        let sender = try Self.startSender()
        let (receiver, hello) = try Self.scan(sender)
        let senderCopy = try sender.copyAwaitingHello()
        let receiverCopy = try receiver.copyAwaitingReveal()

        let original = try Self.complete(sender, receiver, hello: hello)
        let copied = try Self.complete(senderCopy, receiverCopy, hello: hello)

        #expect(original.frames.count == 5)  // reveal, offer, accept, credential, receipt
        #expect(original.codes.count == 2 && original.codes[0] == original.codes[1])
        #expect(original.delivered == Array(Fixtures.password.utf8))
        #expect(original.outcomes == ["receiver completed.imported", "sender completed.imported"])
        #expect(copied == original)
        #expect(sender.memory.hasEnded && senderCopy.memory.hasEnded)
        #expect(receiver.memory.hasEnded && receiverCopy.memory.hasEnded)
    }

    @Test func endingACopyLeavesTheOriginalsSecretsIntact() throws {
        let sender = try Self.startSender()
        let (receiver, hello) = try Self.scan(sender)
        let senderCopy = try sender.copyAwaitingHello()
        let receiverCopy = try receiver.copyAwaitingReveal()
        #expect(senderCopy.memory !== sender.memory && receiverCopy.memory !== receiver.memory)

        _ = try senderCopy.handle(.cancel, now: Fixtures.start)
        _ = try receiverCopy.handle(.cancel, now: Fixtures.start)
        #expect(senderCopy.outcome == .ended(.cancelled(by: .local)) && receiverCopy.outcome == .ended(.cancelled(by: .local)))
        #expect(senderCopy.memory.hasEnded && receiverCopy.memory.hasEnded)
        let originals = sender.keptSecrets + receiver.keptSecrets
        #expect(originals.count == 3 + 4 && originals.allSatisfy { !$0.isWiped && $0.revealedBytes().contains { $0 != 0 } })

        let run = try Self.complete(sender, receiver, hello: hello)
        #expect(run.outcomes == ["receiver completed.imported", "sender completed.imported"])
    }

    @Test func aCopyIsRegisteredLikeANewSession() throws {
        let sender = try Self.startSender()
        let (receiver, _) = try Self.scan(sender)
        let senderRegistry = SenderRegistry.inMemory()
        let receiverRegistry = ReceiverRegistry.inMemory()

        let first = try sender.copyAwaitingHello(registry: senderRegistry)
        #expect(throws: HandoffError.transferIDInUse) { _ = try sender.copyAwaitingHello(registry: senderRegistry) }
        let scanned = try receiver.copyAwaitingReveal(registry: receiverRegistry)
        #expect(throws: HandoffError.alreadyScanned) { _ = try receiver.copyAwaitingReveal(registry: receiverRegistry) }
        #expect(first.phase == .awaitingHello && scanned.phase == .awaitingReveal)
    }
}
