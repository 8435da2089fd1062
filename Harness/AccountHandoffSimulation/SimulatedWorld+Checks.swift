import AccountHandoff
import Foundation

extension SimulatedWorld {
    /// Records what the sender asked for and checks properties 1, 3, 5 and 6 on it.
    /// `trigger` is the frame being processed, if any.
    func absorb(_ actions: [SenderAction], trigger: [UInt8]?) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let bytes), .reply(let bytes):
                if case .reply = action { try checkSecondDevice(trigger, "a reply") }
                try leaks.check(bytes: bytes, "a frame sent by the sender")
                produced[.sender, default: []].append(bytes)
                if FrameBytes.type(of: bytes) == .credential { credentialLeftSender = true }
                inFlight[.toReceiver, default: []].append(InFlightFrame(bytes: bytes, origin: .sender))
                continue
            case .askForCode:
                guard let trigger, FrameBytes.type(of: trigger) == .hello else {
                    throw violation("the sender asked for a code without accepting a hello")
                }
                senderPeer = (produced[.receiver] ?? []).contains(trigger) ? .receiver : .attacker
            case .codeMismatch, .startTypedRun, .typedCodeRetired, .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode:
                break
            case .requestCredential:
                guard senderPersonConfirmed else { throw violation("credential requested before the sending person confirmed") }
            case .anotherDeviceJoined:
                try checkSecondDevice(trigger, "anotherDeviceJoined")
                guard credentialLeftSender else { throw violation("anotherDeviceJoined before the credential left") }
                senderWarnedOfSecondDevice = true
            case .ignored(let error):
                try leaks.check(error: error, "ignored error")
            case .finished(let outcome):
                try checkFinished(.sender, sender.outcome == outcome)
                senderOutcome = outcome
            }
            if !replaying {
                if options.dumpSessions {
                    try leaks.check(text: String(describing: action), "sender action \(ActionName.of(action))")
                } else {
                    try checkCarriedTexts(of: action)
                }
            }
            if options.dumpEveryAction { try leaks.check(renderingsOf: action, "sender action \(ActionName.of(action))") }
        }
    }

    /// Records what a receiver (honest or the attacker's) asked for and checks properties 1, 2,
    /// 3, 5 and 6 on it.
    func absorb(_ actions: [ReceiverAction], from role: Role, trigger: [UInt8]?) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let bytes):
                try leaks.check(bytes: bytes, "a frame sent by the \(role)")
                produced[role, default: []].append(bytes)
                inFlight[.toSender, default: []].append(InFlightFrame(bytes: bytes, origin: role))
                continue
            case .showShortCode(let code):
                try checkCodeShown(code, on: role, trigger: trigger)
            case .showAccount(let account, _):
                try checkAccountShown(account, on: role)
            case .deliverAccount(let imported):
                try checkDelivery(imported, on: role)
            case .ignored(let error):
                try leaks.check(error: error, "ignored error")
            case .finished(let outcome):
                try checkFinished(role, receiverMachine(role)?.outcome == outcome)
                receiverOutcomes[role] = outcome
            }
            if !replaying {
                if options.dumpSessions {
                    try leaks.check(text: String(describing: action), "\(role) action \(ActionName.of(action))")
                } else {
                    try checkCarriedTexts(of: action)
                }
            }
            if options.dumpEveryAction { try leaks.check(renderingsOf: action, "\(role) action \(ActionName.of(action))") }
        }
    }

    /// The fast form of the action scan: the texts an action carries (code, account, outcome),
    /// without a reflection walk of the whole action.
    private func checkCarriedTexts(of action: SenderAction) throws(InvariantViolation) {
        switch action {
        case .finished(.deliveredUnconfirmed(.failed(let error))), .finished(.ended(.failed(let error))):
            try leaks.check(error: error, "an outcome")
        case .send, .reply, .askForCode, .codeMismatch, .requestCredential, .anotherDeviceJoined, .ignored, .finished,
             .startTypedRun, .typedCodeRetired, .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: break
        }
    }

    private func checkCarriedTexts(of action: ReceiverAction) throws(InvariantViolation) {
        switch action {
        case .showShortCode(let code): try leaks.check(text: code.grouped, "a shown code")
        case .showAccount(let account, _): try leaks.check(text: account.description, "a shown account")
        case .deliverAccount(let imported):
            try leaks.check(text: imported.metadata.description + imported.credential.description, "a delivered account")
        case .finished(.ended(.failed(let error))): try leaks.check(error: error, "an outcome")
        case .send, .ignored, .finished: break
        }
    }

    /// A `reply` or `anotherDeviceJoined` must answer a hello of a device other than the sender's peer.
    private func checkSecondDevice(_ trigger: [UInt8]?, _ what: String) throws(InvariantViolation) {
        guard let trigger, FrameBytes.type(of: trigger) == .hello, let senderPeer else {
            throw violation("\(what) without a second device's hello")
        }
        let origin: Role = (produced[.receiver] ?? []).contains(trigger) ? .receiver : .attacker
        guard origin != senderPeer else { throw violation("\(what) answered the session's own peer") }
    }

    /// Property 6: a receiver shows a code only on an authenticated reveal of the sender that
    /// accepted this receiver's hello, and it is the sender's code.
    private func checkCodeShown(_ code: ShortCode, on role: Role, trigger: [UInt8]?) throws(InvariantViolation) {
        guard let trigger, FrameBytes.type(of: trigger) == .reveal, (produced[.sender] ?? []).contains(trigger) else {
            throw violation("the \(role) showed a code without the sender's reveal")
        }
        guard senderPeer == role else { throw violation("the \(role) showed a code although the sender accepted another hello") }
        guard code == sender.shortCode else { throw violation("the \(role)'s code differs from the sender's in one session") }
    }

    private func checkAccountShown(_ account: AccountMetadata, on role: Role) throws(InvariantViolation) {
        guard senderPersonConfirmed else { throw violation("account metadata reached the \(role) before the sending person confirmed") }
        guard account == scenario.account else { throw violation("the \(role) was shown an account the sender never offered") }
        if role == .attacker {
            // Careless or not, the sending person typed the code on the honest receiver's screen.
            guard attacker?.shortCode == receiver.shortCode else {
                throw violation("the shoulder-surfer got the account although the sending person typed the receiving screen's code")
            }
            attackerLearnedAccount = true
        }
    }

    private func checkDelivery(_ imported: ImportedAccount, on role: Role) throws(InvariantViolation) {
        guard senderPersonConfirmed else { throw violation("credential delivered without the sending person's confirmation") }
        guard imported.metadata == scenario.account, imported.metadata.linkID == scenario.account.linkID else {
            throw violation("the delivered account differs from the offered one")
        }
        guard !imported.credential.isWiped, imported.credential.constantTimeEquals(scenario.passwordBytes) else {
            throw violation("the delivered credential differs from the provided one")
        }
        if role == .attacker {
            guard attacker?.shortCode == receiver.shortCode else {
                throw violation("the shoulder-surfer got the credential although the sending person typed the receiving screen's code")
            }
            attackerLearnedCredential = true
            attackerCredential = imported.credential
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
        pendingImport = imported
    }

    private func checkFinished(_ role: Role, _ stateAgrees: Bool) throws(InvariantViolation) {
        finishedCount[role, default: 0] += 1
        guard finishedCount[role] == 1 else { throw violation("the \(role) finished twice") }
        guard hasFinished(role), stateAgrees else {
            throw violation("the \(role) reported an outcome but its state disagrees")
        }
        guard hasWipedItsMemory(role) else { throw violation("the \(role) finished with secrets left in memory") }
    }

    /// Moves the clock past every deadline and ticks every device; lets an app that is still
    /// importing finish (with `.imported`, the ending that most needs the truth); hands every
    /// frame still in flight to its recipients, which must ignore it; then checks the
    /// end-of-session properties: one outcome each, all secrets zero, stores changed only by a
    /// delivered import, outcomes true on both devices (property 7), nothing leaked by any
    /// session's dump.
    ///
    /// - Throws: ``InvariantViolation`` naming the broken property.
    public func finish() throws(InvariantViolation) {
        note("finish")
        now = max(now, lastAcceptedTime)
        try senderLocal(.tick)
        try receiverLocal(.receiver, .tick)
        try receiverLocal(.attacker, .tick)
        try checkDeliveredCredentialIntact()
        if pendingImport != nil { try importFinished(.imported) }
        if receiverMachine(.attacker)?.phase == .awaitingImportResult { try apply(.attackerSendsReceipt) }
        attackerCredential?.wipe()
        attackerCredential = nil
        for direction in [Direction.toSender, .toReceiver] {
            while let frame = inFlight[direction]?.first {
                inFlight[direction]!.removeFirst()
                try hand(frame.bytes, direction)
                try checkIgnoredAfterTheEnd()
                if direction == .toReceiver, attacker != nil {
                    try deliver(frame.bytes, to: .attacker)
                    try checkIgnoredAfterTheEnd()
                }
            }
        }
        for role in Role.allCases where machineState(role) != nil {
            guard hasFinished(role), finishedCount[role] == 1 else {
                throw violation("the \(role) did not end in exactly one terminal state")
            }
            guard hasWipedItsMemory(role) else { throw violation("the \(role) left secrets in memory") }
        }
        guard senderStore.holds(initialSenderStore, takenAfter: initialStoreWrites.sender) else {
            throw violation("the sender's account store changed")
        }
        if receiverImportCommitted {
            guard receiverStore.password(for: scenario.account.linkID, equals: scenario.passwordBytes),
                  receiverStore.snapshot().filter({ $0.metadata.linkID != scenario.account.linkID }) == initialReceiverStore else {
                throw violation("the receiver's store holds something other than the delivered account")
            }
        } else {
            guard receiverStore.holds(initialReceiverStore, takenAfter: initialStoreWrites.receiver) else {
                throw violation("the receiver's store changed without an import")
            }
        }
        if let problem = OutcomeTruth.contradiction(in: self) { throw violation("outcomes contradict each other: \(problem)") }
        guard options.dumpSessions else { return }
        try leaks.check(renderingsOf: sender, "the sender session")
        try leaks.check(renderingsOf: receiver, "the receiver session")
        if let attacker { try leaks.check(renderingsOf: attacker, "the attacker session") }
    }

    private func checkIgnoredAfterTheEnd() throws(InvariantViolation) {
        guard lastReaction?.wasIgnored ?? true else {
            throw violation("a frame arriving after the end was acted on: \(lastFrameActions)")
        }
    }

    /// The sender's outcome, once it finished.
    public var senderFinalOutcome: SenderOutcome? { senderOutcome }

    /// The outcome of a receiver machine (the honest one or the attacker's), once it finished.
    public func receiverFinalOutcome(_ role: Role = .receiver) -> ReceiverOutcome? { receiverOutcomes[role] }

    /// The stable identifier of the outcome each machine reported, once it finished.
    public func outcome(of role: Role) -> String? {
        role == .sender ? senderOutcome?.identifier : receiverOutcomes[role]?.identifier
    }

    /// How many frames the machine playing `role` accepted.
    public func acceptedFrameCount(_ role: Role) -> Int { accepted[role]?.count ?? 0 }

    /// The frames the machine playing `role` produced, in order.
    public func producedFrames(_ role: Role) -> [[UInt8]] { produced[role] ?? [] }
}
