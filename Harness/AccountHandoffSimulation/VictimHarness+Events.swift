import AccountHandoff
import AccountHandoffTestSupport
import Foundation

extension VictimHarness {
    /// The peer (the victim's real counterpart) handles a frame the victim sent.
    func peerReads(_ frame: [UInt8]) {
        secretsMayHaveChanged = true
        if victim == .sender {
            guard let actions = try? receiver.handle(.frameReceived(frame), now: now).actions else { return }
            peerReceiverActed(actions)
        } else {
            guard let actions = try? sender.handle(.frameReceived(frame), now: now).actions else { return }
            peerSenderActed(actions)
        }
    }

    /// The peer's person or app acts.
    func peerActs(_ choice: UInt8) {
        secretsMayHaveChanged = true
        if victim == .sender {
            let event: ReceiverEvent = switch choice {
            case 0: .accept
            case 1: .reject
            case 2: .cancel
            case 3: .importFinished(.imported)
            default: .importFinished(.validationFailed)
            }
            guard let actions = try? receiver.handle(event, now: now).actions else { return }
            peerReceiverActed(actions)
        } else {
            let event: SenderEvent
            switch choice {
            case 0: event = .codeEntered(receiver.shortCode?.digits ?? "000000")
            case 1: event = .reject
            case 2: event = .cancel
            default:
                guard let password = try? SecretBytes(copying: Array("peer-password-\(choice)".utf8)) else { return }
                event = .credentialProvided(password)
            }
            guard let actions = try? sender.handle(event, now: now).actions else { return }
            peerSenderActed(actions)
        }
    }

    private func peerReceiverActed(_ actions: [ReceiverAction]) {
        for action in actions {
            switch action {
            case .send(let frame): deliverable(frame)
            case .deliverAccount(let imported): imported.credential.wipe()  // the peer app's buffer
            case .showShortCode, .showAccount, .ignored, .finished: break
            }
        }
    }

    private func peerSenderActed(_ actions: [SenderAction]) {
        for action in actions {
            switch action {
            case .send(let frame): deliverable(frame)
            case .reply(let frame): secondDeviceReads(frame)
            case .askForCode, .codeMismatch, .requestCredential, .anotherDeviceJoined, .ignored, .finished, .startTypedRun, .typedCodeRetired, .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: break
            }
        }
    }

    private func secondDeviceReads(_ frame: [UInt8]) {
        secretsMayHaveChanged = true
        _ = try? secondDevice?.handle(.frameReceived(frame), now: now)
    }

    /// A second device scans the same QR and sends its genuine hello to the sender.
    func secondDeviceScans() throws(InvariantViolation) {
        guard secondDevice == nil,
              let scanned = try? HandoffReceiver.scan(payload: sender.payload,
                                                      random: InsecureDeterministicRandom(seed: scenario.attackerSeed), now: now),
              case .send(let hello)? = scanned.step.actions.first else { return }
        secondDevice = scanned.receiver
        if victim == .sender { deliverable(hello) } else { peerReads(hello) }
    }

    /// Hands a frame to the victim and checks property by property what it did.
    func deliverToVictim(_ frame: [UInt8]) throws(InvariantViolation) {
        secretsMayHaveChanged = true
        let before = victimObservation
        let reaction: FrameReaction
        if victim == .sender {
            let actions: [SenderAction]
            do { actions = try sender.handle(.frameReceived(frame), now: now).actions } catch {
                throw violation("threw \(error.identifier) for a frame")
            }
            reaction = FrameReaction(actions)
            try checkReaction(reaction, frame: frame, before: before)
            if let plaintext = forgedPlaintext(of: frame), case .acted = reaction.kind { try checkStrictDecoding(actions, plaintext: plaintext) }
            try absorb(actions)
        } else {
            let actions: [ReceiverAction]
            do { actions = try receiver.handle(.frameReceived(frame), now: now).actions } catch {
                throw violation("threw \(error.identifier) for a frame")
            }
            reaction = FrameReaction(actions)
            try checkReaction(reaction, frame: frame, before: before)
            if let plaintext = forgedPlaintext(of: frame), case .acted = reaction.kind { try checkStrictDecoding(actions, plaintext: plaintext) }
            try absorb(actions)
        }
        if tracing { note("-> \(reaction.names.joined(separator: ","))") }
    }

    private func forgedPlaintext(of frame: [UInt8]) -> [UInt8]? {
        forgedPlaintexts.first { $0.frame == frame }?.plaintext
    }

    private func checkReaction(_ reaction: FrameReaction, frame: [UInt8], before: Observation) throws(InvariantViolation) {
        switch reaction.kind {
        case .ignored:
            guard victimObservation == before else { throw violation("changed state on an ignored frame") }
        case .expired:
            break
        case .acted:
            guard peerProduced.contains(frame) else { throw violation("acted on a frame its peer never produced") }
            guard !victimAccepted.contains(frame) else { throw violation("acted on the same frame twice") }
            victimAccepted.append(frame)
        }
    }

    /// Runs a local event on the victim; refusals must be typed and change nothing, and a
    /// password handed to the sender is wiped in every case.
    func victimLocal(_ event: LocalEvent, credentialLength: Int = 8) throws(InvariantViolation) -> Bool {
        let before = victimObservation
        let handsInCredential = victim == .sender && [LocalEvent.credential, .importImported, .importDeclined].contains(event)
        secretsMayHaveChanged = true
        let credential = try TestSecret.make([UInt8](repeating: 0x70, count: credentialLength))
        defer { if !credential.isWiped { credential.wipe() } }
        do {
            if victim == .sender {
                let senderEvent: SenderEvent = switch event {
                case .confirm: .codeEntered(receiver.shortCode?.digits ?? "000000")
                case .reject: .reject
                case .cancel: .cancel
                case .credential, .importImported, .importDeclined: .credentialProvided(credential)
                case .tick: .tick
                case .transportLost: .transportLost
                }
                let actions = try sender.handle(senderEvent, now: now).actions
                if handsInCredential, !credential.isWiped { throw violation("kept the provided credential unwiped") }
                try absorb(actions)
            } else {
                let receiverEvent: ReceiverEvent = switch event {
                case .confirm: .accept
                case .reject: .reject
                case .cancel: .cancel
                case .credential, .importImported: .importFinished(.imported)
                case .importDeclined: .importFinished(.declined)
                case .tick: .tick
                case .transportLost: .transportLost
                }
                let actions = try receiver.handle(receiverEvent, now: now).actions
                try absorb(actions)
            }
        } catch let error as HandoffError {
            switch error.kind {
            case .invalidEvent, .sessionFinished: break
            case .malformed(.credential) where handsInCredential && (credentialLength == 0 || credentialLength > HandoffSender.maximumCredentialByteCount): break
            default: throw violation("threw \(error.identifier) for a local event")
            }
            guard victimObservation == before else { throw violation("changed state while refusing a local event") }
            if handsInCredential, !credential.isWiped { throw violation("kept a refused credential unwiped") }
            learnSecrets()
            try leaks.check(error: error, "thrown error")
            return false
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw violation("untyped error \(error)")
        }
        return true
    }

    /// The receiver's app buffer is never wiped or changed by the session. (A forged password
    /// may be all zero bytes, so the check compares with what was delivered.)
    func checkDeliveredCredential() throws(InvariantViolation) {
        guard let delivered = deliveredCredential else { return }
        guard !delivered.isWiped, delivered.constantTimeEquals(deliveredBytes) else {
            throw violation("the session wiped or changed the credential it handed to the app")
        }
    }

    private func noteDepth() {
        let depth = victim == .sender
            ? (sender.outcome.map { if case .completed = $0 { 5 } else { 0 } } ?? SenderPhase.allCases.firstIndex(of: sender.phase)!)
            : (receiver.outcome.map { if case .completed = $0 { 5 } else { 0 } } ?? ReceiverPhase.allCases.firstIndex(of: receiver.phase)!)
        deepestPhase = max(deepestPhase, depth)
    }

    func absorb(_ actions: [SenderAction]) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let frame):
                try leaks.check(bytes: frame, "a frame the victim sent")
                toPeer.append(frame)
            case .reply(let frame):
                try leaks.check(bytes: frame, "a reply the victim sent")
                secondDeviceReads(frame)
            case .finished:
                try noteFinished()
            case .ignored(let error):
                try leaks.check(error: error, "ignored error")
            case .askForCode, .codeMismatch, .requestCredential, .anotherDeviceJoined, .startTypedRun, .typedCodeRetired, .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode:
                break
            }
        }
        noteDepth()
    }

    func absorb(_ actions: [ReceiverAction]) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let frame):
                try leaks.check(bytes: frame, "a frame the victim sent")
                toPeer.append(frame)
            case .deliverAccount(let imported):
                deliveredCredential = imported.credential
                deliveredBytes = imported.credential.revealedBytes()
            case .finished:
                try noteFinished()
            case .ignored(let error):
                try leaks.check(error: error, "ignored error")
            case .showShortCode, .showAccount:
                break
            }
        }
        noteDepth()
    }

    private func noteFinished() throws(InvariantViolation) {
        finishedCount += 1
        guard finishedCount == 1 else { throw violation("finished twice") }
        guard victimMemoryWiped else { throw violation("finished with secrets in memory") }
    }
}
