import Foundation
import Testing
@testable import AccountHandoff

/// The local-event tables of Spec 6.1 and 6.2, cell by cell: every event in every live phase
/// of both roles either gives exactly the listed actions or is refused with `invalidEvent`
/// naming the event and the phase, leaving the state unchanged.
@Suite struct LocalEventTests {
    static let refused = "refused"

    static let senderTable: [(SessionPair.Step, [LocalEvent: String])] = [
        (.scanned, [.codeEntered: refused, .reject: refused, .cancel: "finished(cancelled.local)",
                    .credentialProvided: refused, .notAuthenticated: refused, .storeUnavailable: refused, .tick: "",
                    .transportLost: "finished(failed.transportLost)"]),
        (.revealReceived, [.codeEntered: "send(offer)", .reject: "send(abort) finished(rejected.local)",
                           .cancel: "send(abort) finished(cancelled.local)", .credentialProvided: refused,
                           .notAuthenticated: refused, .storeUnavailable: refused, .tick: "",
                           .transportLost: "finished(failed.transportLost)"]),
        (.offerReceived, [.codeEntered: refused, .reject: "send(abort) finished(rejected.local)",
                          .cancel: "send(abort) finished(cancelled.local)", .credentialProvided: refused,
                          .notAuthenticated: refused, .storeUnavailable: refused, .tick: "",
                          .transportLost: "finished(failed.transportLost)"]),
        (.acceptReceived, [.codeEntered: refused, .reject: "send(abort) finished(rejected.local)",
                           .cancel: "send(abort) finished(cancelled.local)", .credentialProvided: "send(credential)",
                           .notAuthenticated: "send(abort) finished(notAuthenticated.local)",
                           .storeUnavailable: "send(abort) finished(storeUnavailable.local)",
                           .tick: "", .transportLost: "finished(failed.transportLost)"]),
        (.credentialReceived, [.codeEntered: refused, .reject: refused,
                               .cancel: "finished(deliveredUnconfirmed.cancelled.local)", .credentialProvided: refused,
                               .notAuthenticated: refused, .storeUnavailable: refused,
                               .tick: "", .transportLost: "finished(deliveredUnconfirmed.failed.transportLost)"]),
    ]

    static let receiverTable: [(SessionPair.Step, [LocalEvent: String])] = [
        (.helloAccepted, [.accept: refused, .reject: refused, .cancel: "send(abort) finished(cancelled.local)",
                          .storeUnavailable: refused, .notAuthenticated: refused,
                          .importFinished: refused, .tick: "", .transportLost: "finished(failed.transportLost)"]),
        (.revealReceived, [.accept: refused, .reject: "send(abort) finished(rejected.local)",
                           .cancel: "send(abort) finished(cancelled.local)",
                           .storeUnavailable: "send(abort) finished(storeUnavailable.local)", .notAuthenticated: refused,
                           .importFinished: refused, .tick: "", .transportLost: "finished(failed.transportLost)"]),
        (.offerReceived, [.accept: "send(accept)", .reject: "send(abort) finished(rejected.local)",
                          .cancel: "send(abort) finished(cancelled.local)",
                          .storeUnavailable: "send(abort) finished(storeUnavailable.local)",
                          .notAuthenticated: "send(abort) finished(notAuthenticated.local)",
                          .importFinished: refused, .tick: "", .transportLost: "finished(failed.transportLost)"]),
        (.receiverConfirmed, [.accept: refused, .reject: "send(abort) finished(rejected.local)",
                              .cancel: "send(abort) finished(cancelled.local)",
                              .storeUnavailable: "send(abort) finished(storeUnavailable.local)", .notAuthenticated: refused,
                              .importFinished: refused, .tick: "", .transportLost: "finished(failed.transportLost)"]),
        (.credentialReceived, [.accept: refused, .reject: refused, .cancel: refused,
                               .storeUnavailable: refused, .notAuthenticated: refused,
                               .importFinished: "send(receipt) finished(completed.declined)", .tick: "", .transportLost: ""]),
    ]

    /// The sender's event for `event`; the typed code is the receiving screen's (right) code.
    static func senderEvent(_ event: LocalEvent, pair: SessionPair) -> SenderEvent {
        switch event {
        case .codeEntered: pair.typedCode
        case .reject: .reject
        case .cancel: .cancel
        case .credentialProvided: .credentialProvided(Fixtures.secret(Fixtures.password))
        case .notAuthenticated: .notAuthenticated
        case .storeUnavailable: .storeUnavailable
        case .tick: .tick
        case .transportLost, .importFinished, .accept: .transportLost
        case .typedRunRequested: .typedRunRequested(.localNetwork)
        }
    }

    static func receiverEvent(_ event: LocalEvent) -> ReceiverEvent {
        switch event {
        case .accept: .accept
        case .reject: .reject
        case .cancel: .cancel
        case .storeUnavailable: .storeUnavailable
        case .notAuthenticated: .notAuthenticated
        case .importFinished: .importFinished(.declined)
        case .tick: .tick
        case .transportLost, .credentialProvided, .codeEntered, .typedRunRequested: .transportLost
        }
    }

    @Test func everySenderCellOfTheTable() throws {
        for (step, row) in Self.senderTable {
            let phase = SessionPair.senderPhase(after: step)
            for (event, expected) in row {
                let pair = try SessionPair()
                try pair.run(until: step)
                let input = Self.senderEvent(event, pair: pair)
                if expected == Self.refused {
                    #expect(throws: HandoffError.invalidEvent(event, in: .sender(phase)), "\(phase) \(event)") {
                        try pair.sender.handle(input, now: Fixtures.start)
                    }
                    #expect(pair.sender.phase == phase)
                    if case .credentialProvided(let password) = input { #expect(password.isWiped) }
                    // Nothing changed: the happy path goes on from here.
                    try pair.run(until: .receiptReceived)
                    #expect(pair.sender.outcome == .completed(.imported), "\(phase) \(event)")
                } else {
                    let step = try pair.send(input)
                    #expect(step.kinds.joined(separator: " ") == expected, "\(phase) \(event)")
                    if case .credentialProvided(let password) = input { #expect(password.isWiped) }
                }
            }
        }
    }

    @Test func everyReceiverCellOfTheTable() throws {
        for (step, row) in Self.receiverTable {
            let phase = SessionPair.receiverPhase(after: step)
            for (event, expected) in row {
                let pair = try SessionPair()
                try pair.run(until: step)
                let input = Self.receiverEvent(event)
                if expected == Self.refused {
                    #expect(throws: HandoffError.invalidEvent(event, in: .receiver(phase)), "\(phase) \(event)") {
                        try pair.receiver.handle(input, now: Fixtures.start)
                    }
                    #expect(pair.receiver.phase == phase)
                    try pair.run(until: .receiptReceived)
                    #expect(pair.receiver.outcome == .completed(.imported), "\(phase) \(event)")
                } else {
                    #expect(try pair.receive(input).kinds.joined(separator: " ") == expected, "\(phase) \(event)")
                }
            }
        }
    }

    /// While the app imports, a lost transport changes nothing: the import result still
    /// decides the outcome and the receipt is still sealed (Spec 6.2).
    @Test func transportLossWhileImportingLeavesTheImportInCharge() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        #expect(try pair.receive(.transportLost).kinds == [])
        #expect(pair.receiver.phase == .awaitingImportResult)
        #expect(try pair.receive(.importFinished(.imported)).kinds == ["send(receipt)", "finished(completed.imported)"])
    }

    @Test func errorsNameThePhaseForPeople() {
        let error = HandoffError.invalidEvent(.accept, in: .receiver(.awaitingReveal))
        #expect(error.identifier == "invalidEvent")
        #expect(SessionPhase.receiver(.awaitingReveal).description == "receiver.awaitingReveal")
        #expect(SessionPhase.sender(.awaitingReceipt).description == "sender.awaitingReceipt")
    }

    // MARK: The credential's size (Spec 3.5)

    @Test func theCredentialSizeLimitIsPublic() {
        #expect(HandoffSender.maximumCredentialByteCount == 1022)
    }

    @Test(arguments: [1, 1022])
    func credentialsOfEveryAllowedSizeArriveIntact(length: Int) throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        let password = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let provided = try SecretBytes(copying: password)
        #expect(try pair.send(.credentialProvided(provided)).kinds == ["send(credential)"])
        #expect(provided.isWiped)
        #expect(try pair.receive(.frameReceived(pair.senderFrames[2])).kinds == ["deliverAccount"])
        #expect(bytes(of: try #require(pair.delivered).credential) == password)
    }

    @Test(arguments: [0, 1023, 4096])
    func credentialsOutsideTheLimitAreRefusedAndTheSessionWaits(length: Int) throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        let provided = try SecretBytes(copying: [UInt8](repeating: 0x61, count: length))
        #expect(throws: HandoffError.malformed(.credential)) {
            try pair.sender.handle(.credentialProvided(provided), now: Fixtures.start)
        }
        #expect(provided.isWiped)
        #expect(pair.sender.phase == .awaitingCredential)
        try pair.run(until: .receiptReceived)
        #expect(bytes(of: try #require(pair.delivered).credential) == Array(Fixtures.password.utf8))
    }
}
