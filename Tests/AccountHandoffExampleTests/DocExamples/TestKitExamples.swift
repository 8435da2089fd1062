import AccountHandoff
import AccountHandoffImport
import AccountHandoffTestKit
import Foundation

// The examples in the doc comments of AccountHandoffTestKit.

// example: Sources/AccountHandoffTestKit/InMemoryFrameChannel.swift#1
func inMemoryFrameChannelExample(account: AccountMetadata) throws -> (HandoffSenderSession, InMemoryFrameChannel) {
    let channels = InMemoryFrameChannel.pair()
    let sender = HandoffSenderSession(account: account, rendezvous: try RendezvousToken(bytes: [1]), channel: channels.sender,
                                      credential: { _ in try SecretBytes(utf8: "s3cret") },
                                      authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory())
    let receiverEnd = channels.receiver  // the receiver session's connector returns it
    return (sender, receiverEnd)
}

// example: Sources/AccountHandoffTestKit/InMemoryTypedHub.swift#1
func inMemoryTypedHubExample(account: AccountMetadata) throws -> (HandoffSenderSession, InMemoryFrameChannel) {
    let hub = InMemoryTypedHub()
    let sender = HandoffSenderSession(account: account, rendezvous: try RendezvousToken(bytes: [1]), channel: hub,
                                      credential: { _ in try SecretBytes(utf8: "s3cret") },
                                      authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
                                      options: SenderSessionOptions(typedRoutes: [.localNetwork]))
    let device = hub.connect(route: .localNetwork)  // a typed receiver session's connector returns it
    return (sender, device)
}

// example: Sources/AccountHandoffTestKit/ManualHandoffClock.swift#1
func manualHandoffClockExample() -> ManualHandoffClock {
    let clock = ManualHandoffClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    clock.advance(by: 181)  // the first code expired unscanned; the sender shows a new one
    return clock
}

// example: Sources/AccountHandoffTestKit/ScriptedAuthenticator.swift#1
func scriptedAuthenticatorExample() -> [ScriptedAuthenticator] {
    let refusing = ScriptedAuthenticator(always: .cancelled)
    let patient = ScriptedAuthenticator([.waitUntilCancelled])  // a person who never answers
    return [refusing, patient]
}

// example: Sources/AccountHandoffTestKit/InMemoryAccountStore.swift#1
func inMemoryAccountStoreExample(validator: any AccountValidator) -> ImportCoordinator {
    let store = InMemoryAccountStore()
    let importer = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
    return importer
}
