import AccountHandoff
import AccountHandoffImport
import AccountHandoffTransport
import Foundation

// The examples in the doc comments of the session drivers, each the body of a function whose
// parameters are the example's free names. DocExampleTests checks that every example of the
// documentation appears here (or in another compiled file of this target) verbatim.

// example: Sources/AccountHandoff/Driver/HandoffSenderSession.swift#1
@MainActor func handoffSenderSessionExample(account: AccountMetadata, keychain: some ExampleKeychain, gate: any LocalAuthenticator,
                                            registry: SenderRegistry, ui: any ExampleTransferUI) async throws -> SenderOutcome {
    let listener = try FrameListener()  // AccountHandoffTransport; or any FrameChannel
    let session = HandoffSenderSession(account: account, rendezvous: listener.rendezvous.token, channel: listener,
                                       credential: { try keychain.password(for: $0) },
                                       authenticator: gate, registry: registry)
    Task {
        for await update in session.updates {
            switch update {
            case .showCode(let payload, _, _): ui.showQR(payload.text, expires: payload.expiryDate)
            case .receiverJoined: ui.askForTheCodeOnTheOtherScreen()  // then enterCode(_:)
            case .finished(let outcome): ui.show(outcome.message)
            default: break
            }
        }
    }
    let outcome = await session.run()
    return outcome
}

// example: Sources/AccountHandoff/Driver/HandoffReceiverSession.swift#1
@MainActor func handoffReceiverSessionExample(text: String, coordinator: ImportCoordinator, gate: any LocalAuthenticator,
                                              registry: ReceiverRegistry, ui: any ExampleTransferUI) async throws -> ReceiverOutcome {
    let session = try HandoffReceiverSession(scannedText: text, importer: coordinator,
                                             authenticator: gate, registry: registry) { payload in
        try await ConnectionFrameChannel.connect(to: payload)  // AccountHandoffTransport
    }
    Task {
        for await update in session.updates {
            switch update {
            case .codeReady(let code): ui.show(code)        // the sending person types it
            case .accountOffered(let account, let prepared, let senderGate): ui.review(account, prepared.conflict, senderGate)
            case .finished(let outcome, let detail): ui.show(detail ?? outcome.message)
            default: break
            }
        }
    }
    let outcome = await session.run()
    return outcome
}

// example: Sources/AccountHandoff/Session/Sender/HandoffSender.swift#1
func handoffSenderExample(account: AccountMetadata, token: RendezvousToken, gate: any LocalAuthenticator, bytes: [UInt8],
                          showQR: (String) -> Void, perform: (SenderAction) -> Void) throws {
    let sender = try HandoffSender.start(account: account, rendezvous: token,
                                         random: SystemRandomSource(), now: Date(),
                                         localGate: gate.gateDeclaration)
    showQR(sender.payload.text)
    let step = try sender.handle(.frameReceived(bytes), now: Date())
    for action in step.actions { perform(action) }
    scheduleTimer(at: step.nextDeadline)
}

// example: Sources/AccountHandoff/Words/ShortCodeFormatter.swift#1
func shortCodeFormatterExample(code: ShortCode, label: ExampleLabel) {
    let german = ShortCodeFormatter(digitWords: ["null", "eins", "zwei", "drei", "vier",
                                                 "fünf", "sechs", "sieben", "acht", "neun"])
    label.accessibilityLabel = german.accessibilityLabel(for: code)  // "vier acht zwei, neun eins drei"
}
