import AccountHandoff
import AccountHandoffSimulation
import Foundation

extension DriverWorld {
    /// Ends everything the way people and time would (every prompt dismissed, every person
    /// cancels, waiting imports end, the clock runs past every deadline), then checks.
    func finish() throws(InvariantViolation) {
        note("finish")
        senderGate.answer(.cancelled)
        for end in receivers { end.gate.answer(.cancelled) }
        for connection in pendingConnections { connection.open(false) }
        let session = sender!
        Task { await session.cancel() }
        for end in receivers {
            let receiving = end.session
            Task { await receiving.cancel() }
        }
        try settle()
        for end in receivers { end.importer.finishImport(.cancelled) }
        try settle()
        for _ in 0..<3 {
            clock.advance(by: 100_000)
            try settle()
        }
        if let spunAt = clock.spunAt { throw spinning(spunAt) }
        guard let senderOutcome else { throw violation("the sender's run() never returned") }
        try checkUpdates(senderUpdates, ended: senderUpdatesEnded, outcome: senderOutcome)
        if shownPayload != nil, !senderChannel.closed { throw violation("the sender session left its channel open") }
        for (index, secret) in keychain.handedOut.enumerated() where !secret.isWiped && !secret.isAllZero {
            throw violation("the sender session kept password \(index) from the keychain unwiped")
        }
        if keychain.readsWithoutGate > 0 { throw violation("the sender read the password before the gate said yes") }
        // A session that started never ends for want of memory (Spec 8.5): a password that
        // found none is the sender's store failing (Spec 6.7).
        if senderOutcome.error?.secureMemoryFailure != nil {
            throw violation("the sender ended \(senderOutcome.identifier), for want of memory, after it started")
        }
        for end in receivers { try check(end) }
        if let code = matchedCodes.first, !receivers.contains(where: { $0.shownCode?.digits == code }) {
            throw violation("a typed code matched, but no receiving device showed it")
        }
        try checkTexts()
        if let observing {
            let shown = senderUpdates.compactMap { update -> SessionPayload? in if case .showCode(let payload, _, _) = update { payload } else { nil } }
            // Each QR shown was served first, in order (one served as the session ended may never show).
            guard observing.served.starts(with: shown), observing.served.count <= shown.count + 1 else {
                throw violation("the sender showed QRs it did not serve first (Spec 11.8)")
            }
        }
        if let secondDevice {
            _ = try? secondDevice.handle(.cancel, now: clock.now())
            _ = try? secondDevice.handle(.tick, now: clock.now())
            if secondDevice.phase == .awaitingImportResult { _ = try? secondDevice.handle(.importFinished(.declined), now: clock.now()) }
        }
        note("outcomes: sender \(senderOutcome.identifier), receivers \(receivers.map { $0.outcome?.identifier ?? "-" })")
        if let first = violations.first { throw violation(first) }
        guard SerialJobs.pending == 0 else { throw violation("jobs left after the end") }
    }

    private func check(_ end: ReceiverEnd) throws(InvariantViolation) {
        guard let outcome = end.outcome else { throw violation("receiver \(end.index)'s run() never returned") }
        guard end.updatesEnded, case .finished(let last, _)? = end.updates.last, last == outcome,
              end.updates.filter({ if case .finished = $0 { true } else { false } }).count == 1 else {
            throw violation("receiver \(end.index)'s updates do not end with exactly one finished(\(outcome.identifier))")
        }
        if end.connected, end.updates.contains(where: { if case .connected = $0 { true } else { false } }), !end.channel.closed {
            throw violation("receiver \(end.index) left its channel open")
        }
        for (credential, bytes) in end.importer.imported {
            guard bytes == scenario.passwordBytes else { throw violation("receiver \(end.index) imported a password the sender never sent") }
            guard credential.isWiped || credential.isAllZero else {
                throw violation("receiver \(end.index) kept the delivered password after the import returned")
            }
        }
        if case .completed = outcome, end.importer.imported.isEmpty {
            throw violation("receiver \(end.index) completed without importing")
        }
    }

    private func checkUpdates(_ updates: [SenderUpdate], ended: Bool, outcome: SenderOutcome) throws(InvariantViolation) {
        guard ended, case .finished(let last)? = updates.last, last == outcome,
              updates.filter({ if case .finished = $0 { true } else { false } }).count == 1 else {
            throw violation("the sender's updates do not end with exactly one finished(\(outcome.identifier))")
        }
        for case .offerSent(let code) in updates where !matchedCodes.contains(code.digits) {
            throw violation("the sender sent the offer for code \(code) that nobody typed")
        }
    }
}

extension DriverWorld {
    /// What the sessions told their people holds no password: prompts' reasons, details,
    /// ignored frames' errors, the peers named.
    func checkTexts() throws(InvariantViolation) {
        var texts: [String] = []
        for update in senderUpdates {
            switch update {
            case .authenticating(let purpose): texts += [purpose.reason, purpose.account.emailAddress]
            case .framesIgnored(_, let last): texts.append("\(last)")
            default: break
            }
        }
        for end in receivers {
            for update in end.updates {
                switch update {
                case .authenticating(let purpose): texts += [purpose.reason, purpose.account.emailAddress]
                case .framesIgnored(_, let last): texts.append("\(last)")
                case .finished(_, let detail): texts.append(detail ?? "")
                default: break
                }
            }
        }
        if let observing { texts += (observing.bound + observing.disconnected).map(\.description) }
        let password = scenario.password
        if let leak = texts.first(where: { $0.contains(password) }) { throw violation("the password in a text for people: \(leak.prefix(40))") }
    }
}
