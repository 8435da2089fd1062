import AccountHandoff
import AccountHandoffTestSupport
import Foundation

extension SimulatedWorld {
    /// Applies one step and checks every property it could break.
    ///
    /// Steps that make no sense right now (an index into an empty queue, an attacker move before
    /// it scanned) do nothing.
    ///
    /// - Throws: ``InvariantViolation`` naming the broken property.
    public func apply(_ step: WorldStep) throws(InvariantViolation) {
        note(step.description)
        try perform(step)
        try checkDeliveredCredentialIntact()
    }

    private func perform(_ step: WorldStep) throws(InvariantViolation) {
        switch step {
        case .deliver(let direction, let index):
            guard let frame = removeFrame(direction, index) else { return }
            try hand(frame.bytes, direction)
        case .deliverCopy(let direction, let index):
            guard let frame = peekFrame(direction, index) else { return }
            try hand(frame.bytes, direction)
        case .drop(let direction, let index):
            _ = removeFrame(direction, index)
        case .reorder(let direction, let index):
            guard let frame = removeFrame(direction, index) else { return }
            inFlight[direction, default: []].append(frame)
        case .damage(let direction, let index, let damage):
            guard let frames = inFlight[direction], !frames.isEmpty else { return }
            let position = index % frames.count
            inFlight[direction]![position].bytes = damage.apply(to: frames[position].bytes)
        case .inject(let direction, let bytes):
            inFlight[direction, default: []].append(InFlightFrame(bytes: bytes, origin: nil))
        case .injectForeign(let direction, let index, let retargeted):
            let recorded = SessionRecording.foreign.frames
            var bytes = recorded[index % recorded.count].bytes
            if retargeted { bytes.replaceSubrange(2..<18, with: sender.payload.transferID.bytes) }
            inFlight[direction, default: []].append(InFlightFrame(bytes: bytes, origin: nil))
        case .attackerScans:
            try attackerScans()
        case .attackerObserves(let index):
            guard attacker != nil, let frame = peekFrame(.toReceiver, index) else { return }
            lastReaction = nil
            lastIgnoredError = nil
            try deliver(frame.bytes, to: .attacker)
        case .attackerAccepts:
            try receiverLocal(.attacker, .accept)
        case .attackerSendsReceipt:
            attackerCredential?.wipe()
            attackerCredential = nil
            try receiverLocal(.attacker, .importFinished(.imported))
        case .person(let device, let choice):
            try person(device, choice)
        case .provideCredential:
            try provideCredential()
        case .importFinished(let status):
            try importFinished(status)
        case .advanceClock(let seconds):
            now = now.addingTimeInterval(TimeInterval(seconds))
        case .tick(let device):
            if device == .sender { try senderLocal(.tick) } else { try receiverLocal(.receiver, .tick) }
        case .transportLost(let device):
            if device == .sender { try senderLocal(.transportLost) } else { try receiverLocal(.receiver, .transportLost) }
        case .rescan:
            try rescan()
        case .senderCloses:
            try senderCloses()
        }
    }

    private func removeFrame(_ direction: Direction, _ index: Int) -> InFlightFrame? {
        guard let frames = inFlight[direction], !frames.isEmpty else { return nil }
        return inFlight[direction]!.remove(at: index % frames.count)
    }

    private func peekFrame(_ direction: Direction, _ index: Int) -> InFlightFrame? {
        guard let frames = inFlight[direction], !frames.isEmpty else { return nil }
        return frames[index % frames.count]
    }

    /// Hands frame bytes to the honest device at the end of `direction`.
    func hand(_ bytes: [UInt8], _ direction: Direction) throws(InvariantViolation) {
        lastReaction = nil
        lastIgnoredError = nil
        switch direction {
        case .toReceiver:
            try deliver(bytes, to: .receiver)
        case .toSender:
            if let senderRegistry {
                do {
                    _ = try senderRegistry.admit(frame: bytes, now: now)
                } catch {
                    refusedByRegistry += 1
                    try leaks.check(error: error, "registry refusal")
                    return
                }
            }
            try deliver(bytes, to: .sender)
        }
    }

    /// Delivers frame bytes to a machine and checks property 4.
    func deliver(_ bytes: [UInt8], to role: Role) throws(InvariantViolation) {
        let before = machineState(role)
        let reaction: FrameReaction
        if role == .sender {
            let actions: [SenderAction]
            do { actions = try sender.handle(.frameReceived(bytes), now: now).actions } catch {
                throw violation("the sender threw \(error.identifier) for a frame instead of ignoring it")
            }
            reaction = FrameReaction(actions)
            try checkFrameReaction(reaction, bytes: bytes, role: role, before: before)
            try absorb(actions, trigger: bytes)
        } else {
            guard let machine = receiverMachine(role) else { return }
            let actions: [ReceiverAction]
            do { actions = try machine.handle(.frameReceived(bytes), now: now).actions } catch {
                throw violation("the \(role) threw \(error.identifier) for a frame instead of ignoring it")
            }
            reaction = FrameReaction(actions)
            try checkFrameReaction(reaction, bytes: bytes, role: role, before: before)
            try absorb(actions, from: role, trigger: bytes)
        }
    }

    private func checkFrameReaction(_ reaction: FrameReaction, bytes: [UInt8], role: Role,
                                    before: Observation?) throws(InvariantViolation) {
        lastReaction = reaction
        switch reaction.kind {
        case .ignored(let error):
            lastIgnoredError = error
            guard machineState(role) == before else { throw violation("\(role) changed state on an ignored frame") }
        case .expired:
            break  // the clock ended the session before the frame was looked at
        case .acted:
            let legitimate = role == .sender ? (produced[.receiver] ?? []) + (produced[.attacker] ?? []) : (produced[.sender] ?? [])
            guard legitimate.contains(bytes) else {
                throw violation("\(role) acted on a frame no legitimate peer produced: \(reaction.names)")
            }
            guard !(accepted[role] ?? []).contains(bytes) else { throw violation("\(role) accepted the same frame twice") }
            accepted[role, default: []].append(bytes)
        }
    }

    /// Runs a local event at the sender; refusals must be typed misuse errors that leave the state alone.
    @discardableResult
    func senderLocal(_ event: SenderEvent) throws(InvariantViolation) -> [SenderAction]? {
        let before = machineState(.sender)
        let actions: [SenderAction]
        do { actions = try sender.handle(event, now: now).actions } catch {
            try checkRefusal(error, of: .sender, before: before, allowing: event.isCredential ? [.malformed(.credential)] : [])
            return nil
        }
        try absorb(actions, trigger: nil)
        return actions
    }

    /// Runs a local event at a receiver (honest or the attacker's).
    @discardableResult
    func receiverLocal(_ role: Role, _ event: ReceiverEvent) throws(InvariantViolation) -> [ReceiverAction]? {
        guard let machine = receiverMachine(role) else { return nil }
        let before = machineState(role)
        let actions: [ReceiverAction]
        do { actions = try machine.handle(event, now: now).actions } catch {
            try checkRefusal(error, of: role, before: before, allowing: [])
            return nil
        }
        try absorb(actions, from: role, trigger: nil)
        return actions
    }

    private func checkRefusal(_ error: HandoffError, of role: Role, before: Observation?,
                              allowing extra: [HandoffError]) throws(InvariantViolation) {
        switch error.kind {
        case .invalidEvent, .sessionFinished: break
        default:
            guard extra.contains(error) else { throw violation("\(role) threw \(error.identifier) for a local event") }
        }
        guard machineState(role) == before else { throw violation("\(role) changed state while refusing a local event") }
        try leaks.check(error: error, "thrown error")
        if options.dumpEveryAction { try leaks.check(renderingsOf: error, "thrown error") }
    }

    /// The sender's driver closes the connection after its session ended: its frames reach the
    /// receiver in order, then the close. When the sender's code ran out, the receiver must end
    /// `expired` (Spec 6.0 step 3, 6.2) unless it already ended otherwise or is importing.
    private func senderCloses() throws(InvariantViolation) {
        guard sender.phase == .finished else { return }
        while let frame = inFlight[.toReceiver]?.first {
            inFlight[.toReceiver]!.removeFirst()
            try hand(frame.bytes, .toReceiver)
        }
        let receiverWasLive = receiver.phase != .finished
        try receiverLocal(.receiver, .transportLost)
        guard receiverWasLive, let senderOutcome = sender.outcome, senderOutcome.identifier.hasSuffix("expired"),
              case .ended(let end)? = receiver.outcome else { return }
        guard end == .expired else {
            throw violation("the sender's code ran out, but the receiver says \(end.identifier)")
        }
    }

    private func person(_ device: Device, _ requested: PersonChoice) throws(InvariantViolation) {
        switch requested {
        case .failAuthentication, .storeUnavailable:
            try gateOrStoreFails(device, requested == .failAuthentication)
            return
        case .confirm, .reject, .cancel: break
        }
        switch device {
        case .sender:
            let event: SenderEvent
            switch requested {
            case .confirm:
                // The sending person types what the receiving screen shows (Spec 4.4): careful or
                // careless, a screen that shows no code gives them nothing to type.
                guard let shown = receiver.shortCode else { return }
                event = .codeEntered(shown.digits)
            case .reject: event = .reject
            case .cancel, .failAuthentication, .storeUnavailable: event = .cancel
            }
            let actions = try senderLocal(event)
            if requested == .confirm, let actions, case .send? = actions.first {
                senderPersonConfirmed = true
                senderConfirmedMatchingCodes = sender.shortCode == receiver.shortCode
            }
        case .receiver:
            var choice = requested
            if choice == .confirm, !options.carelessPeople {
                // A careful receiving person accepts only once the sending screen says that the
                // code typed there matched (it shows that code then).
                guard senderPersonConfirmed else { return }
                if sender.shortCode != receiver.shortCode { choice = .reject }
            }
            let event: ReceiverEvent = switch choice {
            case .confirm: .accept
            case .reject: .reject
            case .cancel, .failAuthentication, .storeUnavailable: .cancel
            }
            let actions = try receiverLocal(.receiver, event)
            if choice == .confirm, let actions, case .send? = actions.first { receiverPersonConfirmed = true }
        }
    }

    /// The local-authentication gate or the store fails on `device` (Spec 8.7): the sender's
    /// when the password is asked for, the receiver's when its person accepts (a careful
    /// receiving person only gets there once the code it shows was typed into the sending device).
    private func gateOrStoreFails(_ device: Device, _ authentication: Bool) throws(InvariantViolation) {
        switch device {
        case .sender:
            try senderLocal(authentication ? .notAuthenticated : .storeUnavailable)
        case .receiver:
            try receiverLocal(.receiver, authentication ? .notAuthenticated : .storeUnavailable)
        }
    }

    private func provideCredential() throws(InvariantViolation) {
        let credential = try TestSecret.make(scenario.passwordBytes)
        try senderLocal(.credentialProvided(credential))
        guard credential.isAllZero else { throw violation("the sender kept the provided credential unwiped") }
    }

    /// The receiver's app finishes its import: it reads the credential it was handed (storing
    /// the account for `.imported`), wipes it, then reports the status.
    func importFinished(_ status: ReceiptStatus) throws(InvariantViolation) {
        if let pending = pendingImport {
            if status == .imported {
                try receiverStore.store(pending.metadata, password: pending.credential)
                receiverImportCommitted = true
            }
            pending.credential.wipe()
            pendingImport = nil
        }
        try receiverLocal(.receiver, .importFinished(status))
    }

    /// Property 3: the app's credential is never wiped or changed by the session under a running import.
    func checkDeliveredCredentialIntact() throws(InvariantViolation) {
        guard let pending = pendingImport else { return }
        guard !pending.credential.isWiped, pending.credential.constantTimeEquals(scenario.passwordBytes) else {
            throw violation("the session wiped or changed the credential it handed to the app while the import ran")
        }
    }

    private func attackerScans() throws(InvariantViolation) {
        guard attacker == nil else { return }
        do {
            let payload = try ScannedQR.payload(of: sender.payload.text)
            let scanned = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: scenario.attackerSeed), now: now)
            attacker = scanned.receiver
            try absorb(scanned.step.actions, from: .attacker, trigger: nil)
        } catch let violation as InvariantViolation {
            throw violation
        } catch let error as HandoffError {
            guard error == .expired else { throw violation("the attacker's scan failed with \(error.identifier)") }
        } catch {
            throw violation("unexpected error \(error)")
        }
    }

    private func rescan() throws(InvariantViolation) {
        guard let receiverRegistry else { return }
        var refusal: HandoffError?
        do {
            _ = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: scenario.receiverSeed &+ 1),
                                         now: now, registry: receiverRegistry)
        } catch {
            refusal = error
        }
        guard let refusal else { throw violation("a second scan of the same QR started a session") }
        guard refusal == .alreadyScanned || refusal == .expired else { throw violation("rescan failed with \(refusal.identifier)") }
        try leaks.check(error: refusal, "rescan error")
    }
}

extension SenderEvent {
    /// Whether the event hands in a password (a refused length is a typed error, not misuse).
    var isCredential: Bool {
        if case .credentialProvided = self { return true }
        return false
    }
}
