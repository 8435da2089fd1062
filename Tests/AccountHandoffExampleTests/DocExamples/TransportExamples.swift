import AccountHandoff
import AccountHandoffTransport
import Foundation

// The examples in the doc comments of AccountHandoffTransport (see SessionDriverExamples.swift).

// example: Sources/AccountHandoffTransport/Listener/FrameListener.swift#1
func frameListenerExample(account: AccountMetadata, readPassword: @escaping CredentialReader, gate: any LocalAuthenticator,
                          registry: SenderRegistry) async throws -> SenderOutcome {
    let listener = try FrameListener(address: .loopback)
    let session = HandoffSenderSession(account: account, rendezvous: listener.rendezvous.token, channel: listener,
                                       credential: readPassword, authenticator: gate, registry: registry)
    let outcome = await session.run()  // the session hands each QR's keys to the listener (serve)
    return outcome
}

// example: Sources/AccountHandoffTransport/Connector/ConnectionFrameChannel.swift#1
func connectionFrameChannelExample<Importer: AccountImporter>(payload: SessionPayload, importer: Importer, gate: any LocalAuthenticator,
                                                              registry: ReceiverRegistry) -> HandoffReceiverSession<Importer> {
    let session = HandoffReceiverSession(payload: payload, importer: importer, authenticator: gate,
                                         registry: registry) { payload in
        try await ConnectionFrameChannel.connect(to: payload)
    }
    return session
}
