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
                                     sentCodesPath: String) async throws -> SenderOutcome {
    let listener = try FrameListener(address: .loopback)  // or the LAN address the person chose
    let screen = SendingScreen(account: account, channel: listener, rendezvous: listener.rendezvous.token,
                               keychain: { try keychain.password(for: $0) }, gate: gate,
                               registry: try SenderRegistry(storage: FileRegistryStorage(path: sentCodesPath)))
    let outcome = await screen.run()
    return outcome
}

// example: Sources/AccountHandoff/AccountHandoff.docc/GettingStarted.md#4
@MainActor func receivingDeviceExample(scannedText: String, storeFolder: URL, validator: any AccountValidator,
                                       gate: any LocalAuthenticator, scannedCodesPath: String) async throws -> ReceiverOutcome {
    let store = try ReferenceAccountStore.open(at: storeFolder)
    let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
    let screen = try ReceivingScreen(scanned: scannedText, importer: coordinator, gate: gate,
                                     registry: try ReceiverRegistry(storage: FileRegistryStorage(path: scannedCodesPath)),
                                     connect: { try await ConnectionFrameChannel.connect(to: $0) })
    let outcome = await screen.run()
    return outcome
}
