@_spi(Testing) import AccountHandoff
import Foundation

extension SimulatedWorld {
    /// Records what a machine asked for and checks properties 1, 2, 3 and 5 on it.
    func absorb(_ actions: [HandoffAction], from role: Role, trigger: [UInt8]?) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let bytes):
                try leaks.check(bytes: bytes, "a frame sent by the \(role)")
                produced[role, default: []].append(bytes)
                let direction: Direction = role == .sender ? .toReceiver : .toSender
                inFlight[direction, default: []].append(InFlightFrame(bytes: bytes, origin: role))
                continue
            case .showShortCode:
                if role == .sender {
                    guard let trigger else { throw violation("the sender showed a code without a hello") }
                    senderPeer = (produced[.receiver] ?? []).contains(trigger) ? .receiver : .attacker
                }
            case .showAccount(let account):
                try checkAccountShown(account, on: role)
            case .requestCredential:
                guard role == .sender else { throw violation("a receiver asked for a credential") }
                guard senderPersonConfirmed else { throw violation("credential requested before the sending person confirmed") }
            case .deliverAccount(let imported):
                try checkDelivery(imported, on: role)
            case .ignored(let error):
                try leaks.check(text: error.description, "ignored error")
            case .finished(let outcome):
                try checkFinished(outcome, on: role)
            }
            if !replaying { try leaks.check(text: String(describing: action), "action \(Self.name(action))") }
            if options.dumpEveryAction { try leaks.check(renderingsOf: action, "action \(Self.name(action))") }
        }
    }

    private func checkAccountShown(_ account: AccountMetadata, on role: Role) throws(InvariantViolation) {
        guard role != .sender else { throw violation("the sender showed an account as if received") }
        guard senderPersonConfirmed else { throw violation("account metadata reached the \(role) before the sending person confirmed") }
        guard account == scenario.account else { throw violation("the \(role) was shown an account the sender never offered") }
        if role == .attacker {
            guard options.carelessPeople || attacker?.shortCode == receiver.shortCode else {
                throw violation("the shoulder-surfer got the account although the sending person compared codes")
            }
            attackerLearnedAccount = true
        }
    }

    private func checkDelivery(_ imported: ImportedAccount, on role: Role) throws(InvariantViolation) {
        guard role != .sender else { throw violation("the sender delivered an account to itself") }
        guard senderPersonConfirmed else { throw violation("credential delivered without the sending person's confirmation") }
        guard imported.metadata == scenario.account, imported.metadata.linkID == scenario.account.linkID else {
            throw violation("the delivered account differs from the offered one")
        }
        guard imported.credential.constantTimeEquals(SecretBytes(copying: scenario.passwordBytes)) else {
            throw violation("the delivered credential differs from the provided one")
        }
        if role == .attacker {
            guard options.carelessPeople || attacker?.shortCode == receiver.shortCode else {
                throw violation("the shoulder-surfer got the credential although the people compared codes")
            }
            attackerLearnedCredential = true
            return
        }
        guard receiverPersonConfirmed else { throw violation("credential delivered before the receiving person confirmed") }
        guard senderPeer == .receiver, sender.shortCode == receiver.shortCode else {
            throw violation("credential delivered although the two devices' codes differ")
        }
        guard (accepted[.receiver] ?? []).allSatisfy({ (produced[.sender] ?? []).contains($0) }) else {
            throw violation("credential delivered after an unauthenticated frame")
        }
        receiverDelivered = true
        pendingImport = SimulatedAccountStore.Entry(metadata: imported.metadata,
                                                    password: imported.credential.withUnsafeBytes { SecretBytes(copying: $0) })
    }

    private func checkFinished(_ outcome: TransferOutcome, on role: Role) throws(InvariantViolation) {
        finishedCount[role, default: 0] += 1
        guard finishedCount[role] == 1 else { throw violation("the \(role) finished twice") }
        guard machineState(role)?.state == .finished, machineState(role)?.outcome == outcome else {
            throw violation("the \(role) reported \(outcome) but its state disagrees")
        }
        guard secrets(role).allSatisfy({ $0.isAllZero }) else { throw violation("the \(role) finished with secrets left in memory") }
        finishedOutcome[role] = outcome
    }

    /// Moves the clock past every expiry, ticks every device, and checks the end-of-session
    /// properties: one outcome each, all secrets zero, stores changed only by a delivered
    /// import, consistent outcomes on both sides, nothing leaked by any session's dump.
    ///
    /// - Throws: ``InvariantViolation`` naming the broken property.
    public func finish() throws(InvariantViolation) {
        trace.append("finish")
        now = max(now, lastAcceptedTime.addingTimeInterval(1))
        _ = try local(.sender) { () throws(HandoffError) in try sender.handle(.tick, now: now) }
        _ = try local(.receiver) { () throws(HandoffError) in try receiver.handle(.tick, now: now) }
        if let attacker { _ = try local(.attacker) { () throws(HandoffError) in try attacker.handle(.tick, now: now) } }
        pendingImport?.password.wipe()
        pendingImport = nil
        for role in Role.allCases where machineState(role) != nil {
            guard machineState(role)?.state == .finished, finishedCount[role] == 1 else {
                throw violation("the \(role) did not end in exactly one terminal state")
            }
            guard secrets(role).allSatisfy({ $0.isAllZero }) else { throw violation("the \(role) left secrets in memory") }
        }
        guard senderStore.snapshot() == initialSenderStore else { throw violation("the sender's account store changed") }
        if receiverImportCommitted {
            guard receiverStore.password(for: scenario.account.linkID, equals: scenario.passwordBytes),
                  receiverStore.snapshot().filter({ !$0.hasPrefix("\(scenario.account.linkID)|") }) == initialReceiverStore else {
                throw violation("the receiver's store holds something other than the delivered account")
            }
        } else {
            guard receiverStore.snapshot() == initialReceiverStore else { throw violation("the receiver's store changed without an import") }
        }
        if case .completed(let status)? = finishedOutcome[.sender], senderPeer == .receiver {
            guard finishedOutcome[.receiver] == .completed(status) else {
                throw violation("the sender saw a receipt the receiver never sent")
            }
        }
        if finishedOutcome[.receiver] == .completed(.imported), !receiverImportCommitted {
            throw violation("the receiver reported an import its app never stored")
        }
        guard options.dumpSessions else { return }
        try leaks.check(renderingsOf: sender, "the sender session")
        try leaks.check(renderingsOf: receiver, "the receiver session")
        if let attacker { try leaks.check(renderingsOf: attacker, "the attacker session") }
    }

    /// The outcome each machine reported, once it finished.
    public func outcome(of role: Role) -> TransferOutcome? { finishedOutcome[role] }

    /// How many frames the machine playing `role` accepted.
    public func acceptedFrameCount(_ role: Role) -> Int { accepted[role]?.count ?? 0 }

    /// The frames the machine playing `role` produced, in order.
    public func producedFrames(_ role: Role) -> [[UInt8]] { produced[role] ?? [] }
}
