@_spi(Testing) import AccountHandoff
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
        trace.append(step.description)
        learnSecrets()
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
            try deliver(frame.bytes, to: .attacker)
        case .attackerAccepts:
            guard let attacker else { return }
            _ = try local(.attacker) { () throws(HandoffError) in try attacker.handle(.codeConfirmed, now: now) }
        case .attackerSendsReceipt:
            guard let attacker else { return }
            _ = try local(.attacker) { () throws(HandoffError) in try attacker.handle(.importFinished(.imported), now: now) }
        case .person(let device, let choice):
            try person(device, choice)
        case .provideCredential:
            try provideCredential()
        case .importFinished(let status):
            try importFinished(status)
        case .advanceClock(let seconds):
            now = now.addingTimeInterval(TimeInterval(seconds))
        case .tick(let device):
            let role: Role = device == .sender ? .sender : .receiver
            _ = try local(role) { () throws(HandoffError) in
                device == .sender ? try sender.handle(.tick, now: now) : try receiver.handle(.tick, now: now)
            }
        case .transportLost(let device):
            let role: Role = device == .sender ? .sender : .receiver
            _ = try local(role) { () throws(HandoffError) in
                device == .sender ? try sender.handle(.transportLost, now: now) : try receiver.handle(.transportLost, now: now)
            }
        case .rescan:
            try rescan()
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
    private func hand(_ bytes: [UInt8], _ direction: Direction) throws(InvariantViolation) {
        lastFrameActions = []
        switch direction {
        case .toReceiver:
            try deliver(bytes, to: .receiver)
        case .toSender:
            if let senderRegistry {
                do {
                    _ = try senderRegistry.admit(frame: bytes, now: now)
                } catch {
                    refusedByRegistry += 1
                    try leaks.check(text: error.description, "registry refusal")
                    return
                }
            }
            try deliver(bytes, to: .sender)
        }
    }

    /// Delivers frame bytes to a machine and checks property 4.
    func deliver(_ bytes: [UInt8], to role: Role) throws(InvariantViolation) {
        lastFrameActions = []
        let before = machineState(role)
        let actions: [HandoffAction]
        do {
            switch role {
            case .sender: actions = try sender.handle(.frameReceived(bytes), now: now)
            case .receiver: actions = try receiver.handle(.frameReceived(bytes), now: now)
            case .attacker:
                guard let attacker else { return }
                actions = try attacker.handle(.frameReceived(bytes), now: now)
            }
        } catch {
            throw violation("\(role) threw \(error.identifier) for a frame instead of ignoring it")
        }
        if actions.count == 1, case .ignored = actions[0] {
            guard machineState(role) == before else { throw violation("\(role) changed state on an ignored frame") }
        } else if actions.count == 1, case .finished(.expired) = actions[0] {
            // The clock ended the session before the frame was looked at.
        } else {
            let legitimate = role == .sender ? (produced[.receiver] ?? []) + (produced[.attacker] ?? []) : (produced[.sender] ?? [])
            guard legitimate.contains(bytes) else {
                throw violation("\(role) acted on a frame no legitimate peer produced: \(actions.map(Self.name))")
            }
            guard !(accepted[role] ?? []).contains(bytes) else { throw violation("\(role) accepted the same frame twice") }
            accepted[role, default: []].append(bytes)
        }
        lastFrameActions = actions
        try absorb(actions, from: role, trigger: bytes)
    }

    /// Runs a local event; refusals must be typed misuse errors that leave the state alone.
    func local(_ role: Role, _ body: () throws(HandoffError) -> [HandoffAction]) throws(InvariantViolation) -> [HandoffAction]? {
        let before = machineState(role)
        let actions: [HandoffAction]
        do {
            actions = try body()
        } catch {
            switch error {
            case .invalidEvent, .sessionFinished: break
            default: throw violation("\(role) threw \(error.identifier) for a local event")
            }
            guard machineState(role) == before else { throw violation("\(role) changed state while refusing a local event") }
            try leaks.check(text: error.description, "thrown error")
            try leaks.check(renderingsOf: error, "thrown error")
            return nil
        }
        try absorb(actions, from: role, trigger: nil)
        return actions
    }

    private func person(_ device: Device, _ requested: PersonChoice) throws(InvariantViolation) {
        let ownCode = device == .sender ? sender.shortCode : receiver.shortCode
        let otherCode = device == .sender ? receiver.shortCode : sender.shortCode
        var choice = requested
        if choice == .confirm, !options.carelessPeople, let ownCode, let otherCode, ownCode != otherCode {
            choice = .reject  // a careful person who sees two different codes rejects
        }
        let event: SessionEvent = switch choice {
        case .confirm: .codeConfirmed
        case .reject: .codeRejected
        case .cancel: .cancel
        }
        switch device {
        case .sender:
            let actions = try local(.sender) { () throws(HandoffError) in
                switch event {
                case .codeConfirmed: try sender.handle(.codeConfirmed, now: now)
                case .codeRejected: try sender.handle(.codeRejected, now: now)
                default: try sender.handle(.cancel, now: now)
                }
            }
            if choice == .confirm, let actions, case .send? = actions.first {
                senderPersonConfirmed = true
                senderConfirmedMatchingCodes = sender.shortCode == receiver.shortCode
            }
        case .receiver:
            let actions = try local(.receiver) { () throws(HandoffError) in
                switch event {
                case .codeConfirmed: try receiver.handle(.codeConfirmed, now: now)
                case .codeRejected: try receiver.handle(.codeRejected, now: now)
                default: try receiver.handle(.cancel, now: now)
                }
            }
            if choice == .confirm, let actions, case .send? = actions.first { receiverPersonConfirmed = true }
        }
    }

    private func provideCredential() throws(InvariantViolation) {
        let credential = SecretBytes(utf8: scenario.password)
        _ = try local(.sender) { () throws(HandoffError) in try sender.handle(.credentialProvided(credential), now: now) }
        guard credential.isAllZero else { throw violation("the sender kept the provided credential unwiped") }
    }

    private func importFinished(_ status: ReceiptStatus) throws(InvariantViolation) {
        if let pending = pendingImport, status == .imported {
            receiverStore.store(pending.metadata, password: pending.password)
            receiverImportCommitted = true
        }
        pendingImport?.password.wipe()
        pendingImport = nil
        _ = try local(.receiver) { () throws(HandoffError) in try receiver.handle(.importFinished(status), now: now) }
    }

    private func attackerScans() throws(InvariantViolation) {
        guard attacker == nil else { return }
        do {
            let payload = try SessionPayload(text: sender.payload.text)
            let scanned = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: scenario.attackerSeed), now: now)
            attacker = scanned.receiver
            try absorb(scanned.actions, from: .attacker, trigger: nil)
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
        try leaks.check(text: refusal.description, "rescan error")
    }

    static func name(_ action: HandoffAction) -> String {
        switch action {
        case .send: "send"
        case .showShortCode: "showShortCode"
        case .showAccount: "showAccount"
        case .requestCredential: "requestCredential"
        case .deliverAccount: "deliverAccount"
        case .ignored(let error): "ignored(\(error.identifier))"
        case .finished(let outcome): "finished(\(outcome))"
        }
    }
}
