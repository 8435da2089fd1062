import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation

extension MachineWorld {
    // MARK: A second device

    /// A second device that saw the QR (a shoulder-surfer): it scans, reads the sender's
    /// frames, and its person and app act.
    func secondDevice(_ operands: inout Operands) throws(InvariantViolation) {
        let operation = operands.byte() % 4
        let a = operands.byte()
        switch operation {
        case 0:
            guard secondDevice == nil else { return }
            note("secondDevice.scan")
            guard let scanned = try? HandoffReceiver.scan(payload: sender.payload, configuration: configuration,
                                                          random: InsecureDeterministicRandom(seed: fixtures.scenario.attackerSeed),
                                                          now: now),
                  case .send(let hello)? = scanned.step.actions.first else { return }
            secondDevice = scanned.receiver
            put(hello, to: .sender)
        case 1:
            let queue = inFlight[Side.receiver.rawValue]
            guard secondDevice != nil, !queue.isEmpty else { return }
            let index = Int(a) % queue.count
            inFlight[Side.receiver.rawValue].remove(at: index)
            note("secondDevice.reads")
            secondDeviceReads(queue[index])
        case 2:
            guard let secondDevice else { return }
            let status = ReceiptStatus.allCases[Int(a >> 2) % ReceiptStatus.allCases.count]
            let event: ReceiverEvent = [.accept, .importFinished(status), .cancel, .reject][Int(a) % 4]
            note("secondDevice.\(event)")
            let wasImporting = secondDevice.phase == .awaitingImportResult
            guard let actions = try? secondDevice.handle(event, now: now).actions else { return }
            for action in actions {
                switch action {
                case .send(let frame):
                    if wasImporting, case .importFinished(let status) = event { receiptsSent.insert(status) }
                    put(frame, to: .sender)
                case .deliverAccount(let imported):
                    imported.credential.wipe()
                default:
                    break
                }
            }
        default:
            _ = try? secondDevice?.handle(.tick, now: now)
        }
    }

    // MARK: Registries

    func registry(_ operands: inout Operands) throws(InvariantViolation) {
        let operation = operands.byte() % 10
        let a = operands.byte()
        let b = operands.byte()
        let transferID = sender.payload.transferID
        note("registry.\(operation)")
        switch operation {
        case 0:
            senderRegistry?.prune(now: now.addingTimeInterval(Double(a) * 60))
        case 1:
            receiverRegistry?.prune(now: now.addingTimeInterval(Double(a) * 60))
        case 2:
            guard let senderRegistry else { return }
            let queue = history[Side.sender.rawValue]
            let frame = a & 1 == 0 || queue.isEmpty ? operands.rest() : queue[Int(b) % queue.count]
            let when = a & 0x80 != 0 ? Date(timeIntervalSince1970: .nan) : now
            do {
                let admitted = try senderRegistry.admit(frame: frame, now: when)
                guard senderRegistry.status(of: admitted) == .pending else {
                    throw violation("the sender registry admitted a frame of a transfer that is not pending")
                }
            } catch let violation as InvariantViolation {
                throw violation
            } catch {
                if case .finished? = senderRegistry.status(of: transferID), (try? Frame(bytes: frame))?.transferID == transferID,
                   when.timeIntervalSince1970.isFinite, error as? HandoffError != .transferConsumed {
                    throw violation("the sender registry refused a frame of a finished transfer with \(error)")
                }
            }
        case 3:
            try checkRegistryStatus()
        case 4, 7:
            if operation == 7 { receiverRegistry?.release(receiver.payload!.transferID) }
            let claimed = receiverRegistry?.hasClaimed(receiver.payload!.transferID) ?? false
            do {
                let scanned = try HandoffReceiver.scan(payload: receiver.payload!, configuration: configuration,
                                                       random: InsecureDeterministicRandom(seed: UInt64(a)), now: now,
                                                       registry: receiverRegistry)
                probeReceivers.append(scanned.receiver)
                if claimed { throw violation("a QR the receiver registry holds was scanned again") }
            } catch let violation as InvariantViolation {
                throw violation
            } catch {
                // A release is best effort (Spec 6.3): when its write failed, the stored claim
                // stays and the QR is refused again, which fails closed.
                let releaseLost = (faultyReceiverStorage?.failedWrites ?? 0) > 0
                if !claimed, !releaseLost, error as? HandoffError == .alreadyScanned {
                    throw violation("a released QR was refused as already scanned")
                }
            }
        case 5:
            let claimed = receiverRegistry?.hasClaimed(receiver.payload!.transferID) ?? false
            do {
                try HandoffReceiver.check(payload: receiver.payload!, configuration: configuration, now: now, registry: receiverRegistry)
                if claimed { throw violation("the scan check passed a QR the registry holds") }
            } catch let violation as InvariantViolation {
                throw violation
            } catch {}
        case 6:
            let scenario = fixtures.scenario
            let start = a & 1 == 0 ? fixtures.scenario.start : now
            let known = senderRegistry?.status(of: transferID) != nil
            do {
                let restarted = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                                        random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: start,
                                                        registry: senderRegistry)
                probeSenders.append(restarted)
                if restarted.payload.transferID == transferID { transferStartedTwice = true }
                if restarted.payload.transferID == transferID, known {
                    throw violation("the sender registry let a transfer ID start twice")
                }
            } catch let violation as InvariantViolation {
                throw violation
            } catch {}
        case 8:
            try registryFile(a, b, &operands)
        default:
            try failingRegistries(a, b)
        }
    }

    /// The sender registry's status of the world's transfer follows the sender: pending until
    /// it ends, then its outcome (or forgotten after pruning).
    private func checkRegistryStatus() throws(InvariantViolation) {
        guard !transferStartedTwice, let senderRegistry, let status = senderRegistry.status(of: sender.payload.transferID) else { return }
        switch (status, sender.outcome) {
        case (.pending, nil): break
        case (.finished(let identifier), let outcome?) where identifier == outcome.identifier: break
        default: throw violation("the sender registry says \(status) for a sender in \(sender.phase)")
        }
    }

    /// A registry file with fuzzed contents (or something odd at its path): loading either
    /// refuses it with a storage failure or reads records that survive a save and a load; two
    /// registries sharing the file see each other's claims (Spec 6.3).
    private func registryFile(_ a: UInt8, _ b: UInt8, _ operands: inout Operands) throws(InvariantViolation) {
        var path = RegistryFiles.freshPath("probe-registry")
        if a & 2 != 0 {
            path = RegistryFiles.prepare(path, choice: b)
        } else {
            let header = a & 1 == 0 ? Array("AccountHandoff registry v2\n".utf8) : []
            _ = FileManager.default.createFile(atPath: path, contents: Data(header + operands.rest()))
        }
        let storage = FileRegistryStorage(path: path)
        if let records = try? storage.load() {
            if a & 8 != 0, !records.isEmpty {
                // A full quota: the write fails and the old file stays whole.
                var failed = false
                RegistryFiles.withFileSizeLimit(40) { failed = (try? storage.save(records + records)) == nil }
                guard failed, (try? storage.load()) == records else {
                    throw violation("a registry write over the size limit did not fail cleanly")
                }
            }
            if (try? storage.save(records)) != nil, (try? storage.load()) != records {
                throw violation("registry records changed in a save and load")
            }
        }
        if a & 4 != 0, let registry = try? ReceiverRegistry(storage: storage) {
            // A second registry on the same file, loaded before the first one claims.
            let other = try? ReceiverRegistry(storage: storage)
            if let scanned = try? HandoffReceiver.scan(payload: receiver.payload!, configuration: configuration,
                                                       random: InsecureDeterministicRandom(seed: UInt64(b)), now: now,
                                                       registry: registry) {
                probeReceivers.append(scanned.receiver)
                guard registry.hasClaimed(receiver.payload!.transferID) else { throw violation("a scan did not claim its QR") }
                if let other, let again = try? HandoffReceiver.scan(payload: receiver.payload!, configuration: configuration,
                                                                    random: InsecureDeterministicRandom(seed: 3), now: now,
                                                                    registry: other) {
                    probeReceivers.append(again.receiver)
                    throw violation("two registries sharing a file both claimed one QR")
                }
            }
            registry.release(receiver.payload!.transferID)
            registry.prune(now: now.addingTimeInterval(Double(b) * 100))
        } else if let registry = try? SenderRegistry(storage: storage) {
            let other = try? SenderRegistry(storage: storage)
            let scenario = fixtures.scenario
            if let started = try? HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                                      random: InsecureDeterministicRandom(seed: UInt64(b)), now: now, registry: registry) {
                if let other, let twice = try? HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                                                   random: InsecureDeterministicRandom(seed: UInt64(b)), now: now,
                                                                   registry: other) {
                    probeSenders.append(twice)
                    throw violation("two registries sharing a file both registered one transfer")
                }
                _ = try? started.handle(.cancel, now: now)
                guard registry.status(of: started.payload.transferID) == .finished(outcomeIdentifier: "cancelled.local") else {
                    throw violation("the file registry lost a cancelled transfer")
                }
                _ = try? registry.admit(frame: history[0].first ?? [], now: now)
            }
            registry.prune(now: now.addingTimeInterval(Double(a) * 100))
        }
    }

    /// Registries whose storage fails: starting and scanning are refused with
    /// `registryUnavailable`, or go on with what the registry keeps in memory.
    private func failingRegistries(_ a: UInt8, _ b: UInt8) throws(InvariantViolation) {
        let scenario = fixtures.scenario
        if let registry = try? SenderRegistry(storage: FaultyRegistryStorage(plan: a)) {
            do {
                let started = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                                      random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: now,
                                                      registry: registry)
                _ = try? started.handle(.cancel, now: now)
                guard case .finished? = registry.status(of: started.payload.transferID) else {
                    throw violation("a registry whose storage failed forgot how a transfer ended")
                }
                registry.prune(now: now.addingTimeInterval(10_000))
            } catch let violation as InvariantViolation {
                throw violation
            } catch {
                switch (error as? HandoffError)?.kind {
                case .registryUnavailable?, .invalidClock?: break  // a clock set before 1970 refuses the start first
                default: throw violation("a failing registry threw \(error)")
                }
            }
        }
        if let registry = try? ReceiverRegistry(storage: FaultyRegistryStorage(plan: b)) {
            do {
                let scanned = try HandoffReceiver.scan(payload: receiver.payload!, configuration: configuration,
                                                       random: InsecureDeterministicRandom(seed: UInt64(a)), now: now, registry: registry)
                probeReceivers.append(scanned.receiver)
                registry.release(receiver.payload!.transferID)
                registry.prune(now: now.addingTimeInterval(10_000))
            } catch {
                switch error.kind {
                case .registryUnavailable, .alreadyScanned, .expired, .expiryTooFar, .invalidClock: break
                default: throw violation("a failing receiver registry threw \(error.identifier)")
                }
            }
        }
    }

    // MARK: Scans of crafted codes

    func scanProbe(_ operands: inout Operands) throws(InvariantViolation) {
        let operation = operands.byte() % 6
        let a = operands.byte()
        let b = operands.byte()
        let c = operands.byte()
        let payload = sender.payload
        note("scanProbe.\(operation)")
        switch operation {
        case 0, 1:
            let offset = (Double(Int(a) << 8 | Int(b)) - 32768) / 16
            let expiry = UInt32(max(0, min(Double(UInt32.max), now.timeIntervalSince1970 + offset)))
            let lowOrder: [UInt8] = c & 1 == 0 ? [UInt8](repeating: 0, count: 32) : [1] + [UInt8](repeating: 0, count: 31)
            guard let crafted = try? VectorPrimitives.payload(expiry: operation == 0 ? expiry : payload.expiry, commitment: payload.commitment,
                                                              senderPublicKey: operation == 0 ? payload.senderPublicKey.bytes : lowOrder,
                                                              rendezvous: payload.rendezvous.bytes) else { return }
            let registry = ReceiverRegistry.inMemory()
            do {
                let skew = try ReceiverConfiguration(clockSkewTolerance: UInt32(c >> 1))
                try HandoffReceiver.check(payload: crafted, configuration: skew, now: now, registry: registry)
                let scanned = try HandoffReceiver.scan(payload: crafted, configuration: skew,
                                                       random: InsecureDeterministicRandom(seed: UInt64(c)), now: now, registry: registry)
                probeReceivers.append(scanned.receiver)
            } catch {
                if registry.hasClaimed(crafted.transferID) == true { throw violation("a refused scan kept its claim (\(error))") }
            }
        case 2:
            do {
                _ = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 1),
                                             now: Date(timeIntervalSince1970: a & 1 == 0 ? .nan : .infinity))
                throw violation("a scan accepted a time that is not finite")
            } catch let violation as InvariantViolation {
                throw violation
            } catch {
                guard error as? HandoffError == .invalidClock else { throw violation("a scan at a bad time threw \(error)") }
            }
        case 3:
            let rest = operands.rest()
            let text = a & 1 == 0 ? "AH:" + String(decoding: rest.map { 0x30 + $0 % 10 }, as: UTF8.self)
                                  : String(decoding: rest, as: UTF8.self)
            if let decoded = try? SessionPayload(text: text) {
                guard decoded.text == text, (try? SessionPayload(binary: decoded.binary)) == decoded else {
                    throw violation("a QR text decoded but does not re-encode")
                }
            }
        case 4:
            let binary = [SessionPayload.currentVersion, 1] + operands.rest()
            if let decoded = try? SessionPayload(binary: binary) {
                guard decoded.binary == binary, (try? SessionPayload(text: decoded.text)) == decoded else {
                    throw violation("a QR binary decoded but does not re-encode")
                }
            }
        default:
            let lifetime = UInt32(a) << 8 | UInt32(b)
            let accepted = (try? SenderConfiguration(lifetime: lifetime)) != nil
            guard accepted == (SenderConfiguration.minimumLifetime...SenderConfiguration.maximumLifetime).contains(lifetime),
                  ((try? ReceiverConfiguration(clockSkewTolerance: UInt32(c))) != nil) == (UInt32(c) <= ReceiverConfiguration.maximumClockSkew)
            else { throw violation("a configuration was refused or accepted against its bounds") }
        }
    }

    // MARK: Renderings

    /// What the sessions print: descriptions, dumps, outcomes, the transport keys. None may
    /// hold the password or key material.
    func render(_ operands: inout Operands) throws(InvariantViolation) {
        let what = operands.byte() % 4
        let a = operands.byte()
        learnSecrets()
        note("render.\(what)")
        switch what {
        case 0:
            var texts = ["\(sender.expiryDate)", "\(receiver.expiryDate)", "\(sender)", "\(receiver)", "\(sender.payload)", "\(sender.payload.transferID)", "\(SessionPhase.sender(sender.phase))",
                         "\(SessionPhase.receiver(receiver.phase))", "\(sender.phase)", "\(receiver.phase)"]
            texts += MessageType.allCases.map(\.description)
            if let code = receiver.shortCode { texts += [code.description, code.spoken, code.grouped] }
            if let outcome = sender.outcome {
                texts += [outcome.identifier, "\(outcome.credentialLeft)", outcome.error.map { "\($0)" } ?? "-"]
            }
            if let outcome = receiver.outcome { texts += [outcome.identifier, outcome.error.map { "\($0)" } ?? "-"] }
            for refusal in refusals {
                texts += ["\(refusal)", refusal.errorDescription ?? "-"]
                if case .invalidEvent(let event, let phase) = refusal.kind { texts += ["\(event)", "\(phase)"] }
            }
            for text in texts { try needles.check(text: text, "a description") }
        case 1:
            for value in [sender as Any, receiver as Any, sender.payload as Any] {
                var dumped = ""
                dump(value, to: &dumped)
                try needles.check(text: dumped, "a dump")
                try needles.check(text: String(reflecting: value), "a debug description")
            }
        case 2:
            guard let keys = try? TransportKeys(payload: sender.payload) else { throw violation("no transport keys for the QR") }
            defer { keys.admissionKey.wipe() }
            let challenge = [UInt8](repeating: a, count: TransportKeys.challengeNonceByteCount)
            let tag = keys.admissionTag(challengeNonce: challenge)
            guard keys.isAdmissionTag(tag, challengeNonce: challenge),
                  !keys.isAdmissionTag(FrameBytes.flippingBit(tag, bit: Int(a)), challengeNonce: challenge) else {
                throw violation("an admission tag does not verify, or a damaged one does")
            }
            needles.learn(key: keys.admissionKey.revealedBytes())
            try needles.check(text: "\(keys)", "the transport keys' description")
            try needles.check(bytes: keys.sessionHint + keys.relayToken + keys.senderSide, "the transport keys' public values")
        default:
            let typed = String(decoding: operands.rest(), as: UTF8.self)
            if let code = receiver.shortCode ?? sender.shortCode, code.matches(typed: typed), !ShortCode.isEntry(typed) {
                throw violation("a code matched a text that is not a code entry")
            }
        }
    }
}
