import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// The typed way in the sans-IO core (Spec 3.8, 4.5, 6.1, 6.2): a sender that shows a typed code
/// beside its QR, receivers that type it, and what each wrong guess, replay or race gives.
@Suite struct TypedWayTests {
    /// A sender offering both routes, from the fixed clock and seed.
    static func sender(seed: UInt64 = Fixtures.senderSeed, routes: Set<TypedRoute> = [.localNetwork, .relay]) throws -> HandoffSender {
        try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                random: InsecureDeterministicRandom(seed: seed), now: Fixtures.start, typedRoutes: routes)
    }

    /// A receiver that typed `digits`, connected by `route`.
    static func receiver(typing digits: String, route: TypedRoute = .localNetwork, seed: UInt64 = Fixtures.receiverSeed,
                         registry: ReceiverRegistry? = nil, at now: Date = Fixtures.start) throws -> HandoffReceiver {
        try HandoffReceiver.startTyped(code: try TypedCode(entry: digits), route: route,
                                       random: InsecureDeterministicRandom(seed: seed), now: now, registry: registry)
    }

    /// Another valid code with the same nameplate (a guess of the secret).
    static func wrongCode(for digits: String, variant: Int = 0) -> String {
        let nameplate = String(digits.prefix(3))
        var secret = String(format: "%07d", (Int(digits.dropFirst(3).prefix(7))! + 1 + variant) % 10_000_000)
        if nameplate + secret == String(digits.prefix(10)) { secret = "0000000" }
        return nameplate + secret + String(DammCheckDigit.interim(nameplate + secret))
    }

    struct Run {
        let id: TypedRunID
        let pakeInit: [UInt8]
    }

    /// The sender starts a run for a connection by `route`.
    static func startRun(_ sender: HandoffSender, route: TypedRoute = .localNetwork, at now: Date = Fixtures.start) throws -> Run {
        let step = try sender.handle(.typedRunRequested(route), now: now)
        guard case .startTypedRun(let id, let pakeInit) = try #require(step.actions.first), step.actions.count == 1 else {
            throw HandoffError.invalidConfiguration
        }
        return Run(id: id, pakeInit: pakeInit)
    }

    /// The receiver's `pakeReply` to `run`.
    static func reply(_ receiver: HandoffReceiver, to run: Run, at now: Date = Fixtures.start) throws -> [UInt8] {
        let step = try receiver.handle(.frameReceived(run.pakeInit), now: now)
        #expect(step.kinds == ["send(pakeReply)"])
        return try #require(step.actions.first?.frame)
    }

    @Test(arguments: [TypedRoute.localNetwork, .relay])
    func aTypedCodePairsAndTheTransferCompletesOnBothDevices(route: TypedRoute) throws {
        let sender = try Self.sender()
        let code = try #require(sender.typedCode)
        #expect(code.grouped.count == 13)
        let receiver = try Self.receiver(typing: code.grouped, route: route)
        #expect(receiver.phase == .awaitingPakeInit)
        #expect(receiver.payload == nil && receiver.transferID == nil)

        let run = try Self.startRun(sender, route: route)
        let reply = try Self.reply(receiver, to: run)
        #expect(receiver.phase == .awaitingPakeConfirm)
        #expect(receiver.transferID == sender.payload.transferID)
        #expect(receiver.expiryDate == sender.expiryDate)

        let paired = try sender.handle(.frameReceived(reply), now: Fixtures.start)
        #expect(paired.kinds == ["pairedByTypedCode", "send(pakeConfirm)", "send(offer)"])
        #expect(sender.phase == .awaitingAccept)
        #expect(sender.typedCode == nil)
        #expect(code.isWiped)
        let confirm = try #require(paired.actions[1].frame), offer = try #require(paired.actions[2].frame)

        #expect(try receiver.handle(.frameReceived(confirm), now: Fixtures.start).kinds == [])
        #expect(receiver.phase == .awaitingOffer)
        #expect(try receiver.handle(.frameReceived(offer), now: Fixtures.start).kinds == ["showAccount"])
        #expect(receiver.offeredAccount == Fixtures.account)
        #expect(receiver.shortCode == nil)  // the person typed the code: nothing to compare
        let accept = try #require(try receiver.handle(.accept, now: Fixtures.start).actions.first?.frame)
        #expect(try sender.handle(.frameReceived(accept), now: Fixtures.start).kinds == ["requestCredential"])
        let password = try sender.credential(copying: Array(Fixtures.password.utf8).withUnsafeBytes { $0 })
        let credential = try #require(try sender.handle(.credentialProvided(password), now: Fixtures.start).actions.first?.frame)
        let delivered = try receiver.handle(.frameReceived(credential), now: Fixtures.start)
        #expect(delivered.kinds == ["deliverAccount"])
        if case .deliverAccount(let account) = delivered.actions[0] {
            #expect(bytes(of: account.credential) == Array(Fixtures.password.utf8))
        }
        let receipt = try #require(try receiver.handle(.importFinished(.imported), now: Fixtures.start).actions.first?.frame)
        _ = try sender.handle(.frameReceived(receipt), now: Fixtures.start)
        #expect(sender.outcome == .completed(.imported))
        #expect(receiver.outcome == .completed(.imported))
        #expect(sender.keptSecrets.allSatisfy(\.isWiped) && receiver.keptSecrets.isEmpty)
    }

    /// One guess per code (Spec 6.1, 6.2): a wrong code retires the sender's code at once, the
    /// guesser is told `pakeRefused` and ends `typedCodeMismatch`; the new code works.
    @Test func aWrongGuessRetiresTheCodeAndTheNewCodeWorks() throws {
        let sender = try Self.sender()
        let first = try #require(sender.typedCode).digits
        let guesser = try Self.receiver(typing: Self.wrongCode(for: first))
        let run = try Self.startRun(sender)
        let step = try sender.handle(.frameReceived(try Self.reply(guesser, to: run)), now: Fixtures.start)
        #expect(step.kinds == ["reply(pakeRefused)", "typedCodeRetired(1)"])
        guard case .typedCodeRetired(let newCode, 1) = step.actions[1] else { throw HandoffError.invalidConfiguration }
        #expect(sender.typedCode?.digits == newCode.digits)
        #expect(newCode.digits != first)
        #expect(sender.phase == .awaitingHello)
        _ = try guesser.handle(.frameReceived(try #require(step.actions[0].frame)), now: Fixtures.start)
        #expect(guesser.outcome == .ended(.failed(.typedCodeMismatch)))

        // The retired code no longer works, even typed right: the sender's CPace uses the new one.
        let late = try Self.receiver(typing: first, seed: 21)
        let lateRun = try Self.startRun(sender)
        let refused = try sender.handle(.frameReceived(try Self.reply(late, to: lateRun)), now: Fixtures.start)
        #expect(refused.kinds == ["reply(pakeRefused)", "typedCodeRetired(2)"])

        let honest = try Self.receiver(typing: try #require(sender.typedCode).digits, seed: 22)
        let honestRun = try Self.startRun(sender)
        let paired = try sender.handle(.frameReceived(try Self.reply(honest, to: honestRun)), now: Fixtures.start)
        #expect(paired.kinds == ["pairedByTypedCode", "send(pakeConfirm)", "send(offer)"])
    }

    /// Three wrong guesses withdraw the typed way (Spec 6.1); the QR still pairs.
    @Test func threeWrongGuessesWithdrawTheTypedWayAndTheQRStillWorks() throws {
        let pair = try SessionPair()
        let sender = try Self.sender()
        var kinds: [[String]] = []
        for guess in 0..<3 {
            let digits = try #require(sender.typedCode).digits
            let guesser = try Self.receiver(typing: Self.wrongCode(for: digits), seed: 30 + UInt64(guess))
            let run = try Self.startRun(sender)
            kinds.append(try sender.handle(.frameReceived(try Self.reply(guesser, to: run)), now: Fixtures.start).kinds)
        }
        #expect(kinds == [["reply(pakeRefused)", "typedCodeRetired(1)"], ["reply(pakeRefused)", "typedCodeRetired(2)"],
                          ["reply(pakeRefused)", "typedWayWithdrawn(wrongGuesses)"]])
        #expect(sender.typedCode == nil)
        #expect(throws: HandoffError.invalidEvent(.typedRunRequested, in: .sender(.awaitingHello))) {
            try sender.handle(.typedRunRequested(.localNetwork), now: Fixtures.start)
        }
        // The QR way of the same sender pairs as in version 3.
        let (receiver, hello) = try HandoffReceiver.scan(payload: try SessionPayload(text: sender.payload.text),
                                                         random: InsecureDeterministicRandom(seed: 40), now: Fixtures.start)
        let step = try sender.handle(.frameReceived(try #require(hello.actions.first?.frame)), now: Fixtures.start)
        #expect(step.kinds == ["send(reveal)", "askForCode"])
        #expect(receiver.phase == .awaitingReveal)
        _ = pair
    }

    /// The first way to pair wins (Spec 6.1): a QR hello withdraws the typed way, and a run
    /// that was pending is refused afterwards.
    @Test func theQRPairingFirstWithdrawsTheTypedWay() throws {
        let sender = try Self.sender()
        let code = try #require(sender.typedCode)
        let typist = try Self.receiver(typing: code.digits)
        let run = try Self.startRun(sender)
        let (_, hello) = try HandoffReceiver.scan(payload: try SessionPayload(text: sender.payload.text),
                                                  random: InsecureDeterministicRandom(seed: 41), now: Fixtures.start)
        let step = try sender.handle(.frameReceived(try #require(hello.actions.first?.frame)), now: Fixtures.start)
        #expect(step.kinds == ["send(reveal)", "askForCode", "typedWayWithdrawn(pairedByQR)"])
        #expect(sender.typedCode == nil && code.isWiped)
        let late = try sender.handle(.frameReceived(try Self.reply(typist, to: run)), now: Fixtures.start)
        #expect(late.kinds == ["ignored(replayed)"])  // E1: the session is past sequence 0 (Spec 5.3)
    }

    /// The route is bound into `CI` (Spec 12.7): a run made through the relay cannot be finished
    /// by a device that came over the local network; it counts as a wrong code.
    @Test func aRouteThatDiffersIsAWrongGuess() throws {
        let sender = try Self.sender()
        let receiver = try Self.receiver(typing: try #require(sender.typedCode).digits, route: .localNetwork)
        let run = try Self.startRun(sender, route: .relay)
        let step = try sender.handle(.frameReceived(try Self.reply(receiver, to: run)), now: Fixtures.start)
        #expect(step.kinds == ["reply(pakeRefused)", "typedCodeRetired(1)"])
    }

    /// A code is claimed before the reply leaves (Spec 6.3) and works once per device; the
    /// claim's expiry is this device's bound, and a code typed again is refused without a run.
    @Test func aCodeWorksOncePerDevice() throws {
        let registry = ReceiverRegistry.inMemory()
        let sender = try Self.sender()
        let digits = try #require(sender.typedCode).digits
        let receiver = try Self.receiver(typing: digits, registry: registry)
        _ = try Self.reply(receiver, to: try Self.startRun(sender))
        #expect(throws: HandoffError.typedCodeAlreadyUsed) { try Self.receiver(typing: digits, registry: registry) }
        // Before any pakeInit nothing is claimed: a session that lost its connection leaves the code usable.
        let other = try Self.sender(seed: 99)
        let otherDigits = try #require(other.typedCode).digits
        let lost = try Self.receiver(typing: otherDigits, registry: registry)
        _ = try lost.handle(.transportLost, now: Fixtures.start)
        #expect(lost.outcome == .ended(.failed(.transportLost)))
        _ = try Self.receiver(typing: otherDigits, registry: registry)
    }

    /// A connection closed after the reply: the receiver ends `typedCodeUnconfirmed`; the
    /// sender counts no guess when the run ends (Spec 6.1, 6.2).
    @Test func aConnectionLostAfterTheReplyEndsUnconfirmedAndCostsTheSenderNothing() throws {
        let sender = try Self.sender()
        let code = try #require(sender.typedCode).digits
        let receiver = try Self.receiver(typing: code)
        let run = try Self.startRun(sender)
        _ = try Self.reply(receiver, to: run)
        #expect(try receiver.handle(.transportLost, now: Fixtures.start).kinds == ["finished(failed.typedCodeUnconfirmed)"])
        #expect(try sender.handle(.typedRunEnded(run.id), now: Fixtures.start).kinds == [])
        #expect(sender.typedCode?.digits == code)  // no guess counted: the code stays
    }

    /// At most 8 runs wait at once (Spec 6.1); a run that ends frees its slot, and a run older
    /// than 10 s is dropped at the next event.
    @Test func atMostEightRunsArePending() throws {
        let sender = try Self.sender()
        var runs: [Run] = []
        for _ in 0..<8 { runs.append(try Self.startRun(sender)) }
        #expect(Set(runs.map(\.id)).count == 8)
        #expect(throws: HandoffError.typedRunsBusy) { try sender.handle(.typedRunRequested(.localNetwork), now: Fixtures.start) }
        _ = try sender.handle(.typedRunEnded(runs[0].id), now: Fixtures.start)
        _ = try Self.startRun(sender)
        #expect(throws: HandoffError.typedRunsBusy) { try sender.handle(.typedRunRequested(.relay), now: Fixtures.time(9)) }
        _ = try Self.startRun(sender, at: Fixtures.time(10))  // every run is 10 s old: all dropped
        // A reply to a dropped run is ignored and counts no guess.
        let receiver = try Self.receiver(typing: try #require(sender.typedCode).digits)
        let late = try sender.handle(.frameReceived(try Self.reply(receiver, to: runs[1])), now: Fixtures.time(10))
        #expect(late.kinds == ["ignored(unknownTransfer)"])
    }

    /// A recorded typed session replayed (Spec 8.8): its `pakeReply` to the sender that already
    /// paired is no run of it; its `pakeInit` to a device that ran the code is refused before a run.
    @Test func aReplayedTypedSessionGivesNothing() throws {
        let registry = ReceiverRegistry.inMemory()
        let sender = try Self.sender()
        let digits = try #require(sender.typedCode).digits
        let receiver = try Self.receiver(typing: digits, registry: registry)
        let run = try Self.startRun(sender)
        let reply = try Self.reply(receiver, to: run)
        let paired = try sender.handle(.frameReceived(reply), now: Fixtures.start)
        let confirm = try #require(paired.actions[1].frame)
        #expect(try sender.handle(.frameReceived(reply), now: Fixtures.start).kinds == ["ignored(replayed)"])
        #expect(throws: HandoffError.typedCodeAlreadyUsed) { try Self.receiver(typing: digits, registry: registry) }
        // Without the registry, the replayed pakeInit gets a reply under a fresh yb, which the
        // recorded pakeConfirm does not confirm: the receiver ends, nothing is offered.
        let fresh = try Self.receiver(typing: digits, seed: 50)
        _ = try Self.reply(fresh, to: run)
        #expect(try fresh.handle(.frameReceived(confirm), now: Fixtures.start).kinds == ["finished(failed.typedCodeMismatch)"])
    }

    /// A `pakeInit` whose `Ya` is no element ends the receiver before it sends or claims anything;
    /// one whose expiry passed or lies too far ends it the same way (Spec 2.5 S2-S3).
    @Test func aBadPakeInitEndsTheReceiverWithoutAFrame() throws {
        let sender = try Self.sender()
        let digits = try #require(sender.typedCode).digits
        let run = try Self.startRun(sender)
        var forged = run.pakeInit
        for index in 44..<76 { forged[index] = 0xff }  // Ya: not a canonical encoding
        let invalid = try Self.receiver(typing: digits)
        #expect(try invalid.handle(.frameReceived(forged), now: Fixtures.start).kinds == ["finished(failed.invalidPakeShare)"])
        let late = try Self.receiver(typing: digits, at: Fixtures.time(Fixtures.lifetime + Fixtures.skew))
        #expect(try late.handle(.frameReceived(run.pakeInit), now: Fixtures.time(Fixtures.lifetime + Fixtures.skew)).kinds
                == ["finished(expired)"])
        let early = try Self.receiver(typing: digits, at: Fixtures.time(-Double(600 + 30) + Fixtures.lifetime - 1))
        #expect(try early.handle(.frameReceived(run.pakeInit), now: Fixtures.time(-Double(600 + 30) + Fixtures.lifetime - 1)).kinds
                == ["finished(failed.expiryTooFar)"])
    }

    /// A typo caught by the check digit, or six digits, costs nothing: no session starts.
    @Test func aTypoCostsNothing() throws {
        let sender = try Self.sender()
        let digits = try #require(sender.typedCode).digits
        var typo = Array(digits)
        typo[5] = typo[5] == "0" ? "1" : "0"
        #expect(throws: HandoffError.typedCodeCheckFailed) { try Self.receiver(typing: String(typo)) }
        #expect(throws: HandoffError.typedCodeIsShortCode) { try Self.receiver(typing: "123 456") }
        #expect(sender.typedCode?.digits == digits)
    }

    /// A name taken on the local network draws a new code and counts no guess.
    @Test func aTakenNameDrawsANewCodeWithoutAGuess() throws {
        let sender = try Self.sender()
        let first = try #require(sender.typedCode).digits
        let step = try sender.handle(.typedNameTaken, now: Fixtures.start)
        #expect(step.kinds == ["typedCodeReplaced"])
        #expect(sender.typedCode?.digits != first)
        for _ in 1..<HandoffSender.maximumTypedNamesTaken { _ = try sender.handle(.typedNameTaken, now: Fixtures.start) }
        #expect(try sender.handle(.typedNameTaken, now: Fixtures.start).kinds == ["typedWayWithdrawn(namesTaken)"])
    }
}
