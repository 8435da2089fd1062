import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffTransport
import Foundation

// The wiring examples of the DocC catalog's "Getting started" (its first two blocks are
// TransferScreens.swift's screens), each the body of a function whose parameters are the
// example's free names.

// example: Sources/AccountHandoff/AccountHandoff.docc/GettingStarted.md#3
@MainActor func sendingDeviceExample(account: AccountMetadata, keychain: some ExampleKeychain, gate: any LocalAuthenticator,
                                     appDirectory: URL) async throws -> SenderOutcome {
    let session = try HandoffSenderSession(account: account, listeningOn: .loopback,  // or the LAN address the person chose
                                           credential: { try keychain.password(for: $0) }, authenticator: gate,
                                           registry: try SenderRegistry(directory: appDirectory))
    let outcome = await SendingScreen(session).run()
    return outcome
}

// example: Sources/AccountHandoff/AccountHandoff.docc/GettingStarted.md#4
@MainActor func receivingDeviceExample(scannedText: String, storeFolder: URL, validator: any AccountValidator,
                                       gate: any LocalAuthenticator, appDirectory: URL) async throws -> ReceiverOutcome {
    let store = try ReferenceAccountStore.open(at: storeFolder)
    let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
    let session = try HandoffReceiverSession(scannedText: scannedText, importer: coordinator, authenticator: gate,
                                             registry: try ReceiverRegistry(directory: appDirectory))
    let outcome = await ReceivingScreen(session).run()
    return outcome
}
