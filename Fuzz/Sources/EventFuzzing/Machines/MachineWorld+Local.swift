import AccountHandoff
import AccountHandoffSimulation
import Foundation

extension MachineWorld {
    // MARK: The sending side

    func senderLocal(_ operands: inout Operands) throws(InvariantViolation) {
        let choice = operands.byte() % 11
        let a = operands.byte()
        let b = operands.byte()
        let c = operands.byte()
        // The sending person types what the receiving screen shows (Spec 4.4); with nothing
        // shown, whatever they make up.
        let shown = receiver.shortCode
        switch choice {
        case 0: try senderLocal(.codeEntered(shown?.digits ?? String(format: "%06d", (Int(a) << 16 | Int(b) << 8 | Int(c)) % 1_000_000)))
        case 1: try senderLocal(.codeEntered(shown?.grouped ?? " 12 34 56 "))
        case 2: try senderLocal(.codeEntered(String(format: "%06d", (Int(a) << 16 | Int(b) << 8 | Int(c)) % 1_000_000)))
        case 3: try senderLocal(.codeEntered(String(decoding: [a, b, c] + operands.rest(), as: UTF8.self)))
        case 4: try senderLocal(.reject)
        case 5: try senderLocal(.cancel)
        case 6:
            let length = (Int(a) << 8 | Int(b)) % 1100
            let bytes = length == fixtures.scenario.passwordBytes.count && c & 1 == 0
                ? fixtures.scenario.passwordBytes : [UInt8](repeating: 0x70 | c & 0x0f, count: length)
            // The app copies the password into the session's reservation (as the driver does)
            // or into guarded memory of its own; the first refuses an empty or too long one.
            let copied = c & 0x10 == 0 ? nil
                : try? bytes.withUnsafeBytes { (raw) throws(HandoffError) in try sender.credential(copying: raw) }
            let credential: SecretBytes
            do { credential = try copied ?? SecretBytes(copying: bytes) } catch { throw violation("no memory for a test password") }
            try senderLocal(.credentialProvided(credential), password: bytes)
        case 7: try senderLocal(.notAuthenticated)
        case 8: try senderLocal(.storeUnavailable)
        case 9: try senderLocal(.tick)
        default: try senderLocal(.transportLost)
        }
    }

    /// Feeds a local event to the sender; a refusal must be a typed misuse error that changes
    /// nothing, and a password handed in is wiped in every case.
    func senderLocal(_ event: SenderEvent, password: [UInt8]? = nil) throws(InvariantViolation) {
        let before = observation(.sender)
        note("sender.\(event)")
        let actions: [SenderAction]
        do { actions = try sender.handle(event, now: now).actions } catch {
            switch (error.kind, event) {
            case (.invalidEvent, _), (.sessionFinished, _), (.malformed(.typedCode), .codeEntered): break
            case (.malformed(.credential), .credentialProvided) where password.map({ $0.isEmpty || $0.count > HandoffSender.maximumCredentialByteCount }) ?? false:
                break
            default: throw violation("the sender threw \(error.identifier) for a local event")
            }
            guard observation(.sender) == before else { throw violation("the sender changed its state while refusing a local event") }
            if case .credentialProvided(let credential) = event, !credential.isWiped {
                throw violation("the sender kept a refused password unwiped")
            }
            note("  refused \(error.identifier)")
            if refusals.count < 4 { refusals.append(error) }
            return
        }
        machineTime[0] = max(machineTime[0], now.timeIntervalSince1970)
        if case .credentialProvided(let credential) = event {
            guard credential.isWiped else { throw violation("the sender kept a password it was handed") }
            if sender.phase == .awaitingReceipt, before.phase == .sender(.awaitingCredential) { passwordSent = password }
        }
        try absorb(actions)
    }

    // MARK: The receiving side

    func receiverLocal(_ operands: inout Operands) throws(InvariantViolation) {
        let choice = operands.byte() % 8
        let status = ReceiptStatus.allCases[operands.choice(ReceiptStatus.allCases.count)]
        let event: ReceiverEvent = switch choice {
        case 0: .accept
        case 1: .reject
        case 2: .cancel
        case 3: .storeUnavailable
        case 4: .notAuthenticated
        case 5: .importFinished(status)
        case 6: .tick
        default: .transportLost
        }
        try receiverLocal(event)
    }

    /// Feeds a local event to the receiver; a refusal must be a typed misuse error that
    /// changes nothing.
    func receiverLocal(_ event: ReceiverEvent) throws(InvariantViolation) {
        let before = observation(.receiver)
        note("receiver.\(event)")
        let actions: [ReceiverAction]
        do { actions = try receiver.handle(event, now: now).actions } catch {
            switch error.kind {
            case .invalidEvent, .sessionFinished: break
            default: throw violation("the receiver threw \(error.identifier) for a local event")
            }
            guard observation(.receiver) == before else { throw violation("the receiver changed its state while refusing a local event") }
            note("  refused \(error.identifier)")
            if refusals.count < 4 { refusals.append(error) }
            return
        }
        machineTime[1] = max(machineTime[1], now.timeIntervalSince1970)
        if case .importFinished(let status) = event, before.phase == .receiver(.awaitingImportResult),
           actions.contains(where: { if case .send = $0 { true } else { false } }) {
            receiptsSent.insert(status)
        }
        try absorb(actions)
    }

    // MARK: The clock

    func clock(_ operands: inout Operands) throws(InvariantViolation) {
        let mode = operands.byte() % 7
        let amount = Double(operands.uint16())
        let expiry = Double(sender.payload.expiry)
        let nudge = amount.truncatingRemainder(dividingBy: 5) - 2
        switch mode {
        case 0: now = now.addingTimeInterval(amount.truncatingRemainder(dividingBy: 400))
        case 1: now = now.addingTimeInterval(amount * 10)
        case 2: now = now.addingTimeInterval(-amount.truncatingRemainder(dividingBy: 400))
        case 3: now = Date(timeIntervalSince1970: expiry + nudge)
        case 4: now = Date(timeIntervalSince1970: receiver.effectiveExpiry.timeIntervalSince1970 + nudge)
        case 5: now = Date(timeIntervalSince1970: expiry + Double(HandoffSender.receiptWaitSeconds) + nudge)
        default:
            try invalidClock(amount)
            return
        }
        note("clock -> \(now.timeIntervalSince1970 - fixtures.scenario.start.timeIntervalSince1970)")
    }

    /// A time that is not finite is refused as `invalidClock`, for frames and local events
    /// alike, and changes nothing.
    private func invalidClock(_ amount: Double) throws(InvariantViolation) {
        let values: [Double] = [.nan, .infinity, -.infinity]
        let bad = Date(timeIntervalSince1970: values[Int(amount) % 3])
        note("invalid clock")
        let frame = history[0].last ?? []
        for side in [Side.sender, .receiver] {
            let before = observation(side)
            do {
                if side == .sender {
                    _ = try sender.handle(Int(amount) & 4 == 0 ? .tick : .frameReceived(frame), now: bad)
                } else {
                    _ = try receiver.handle(Int(amount) & 4 == 0 ? .tick : .frameReceived(history[1].last ?? []), now: bad)
                }
                throw violation("the \(side) accepted a time that is not finite")
            } catch let violation as InvariantViolation {
                throw violation
            } catch {
                guard error as? HandoffError == .invalidClock else { throw violation("the \(side) threw \(error) for a bad clock") }
            }
            guard observation(side) == before else { throw violation("the \(side) changed on a bad clock") }
        }
    }
}
