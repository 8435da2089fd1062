import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// Records what the README's controllers show.
@MainActor private final class RecordingUI: TransferUI {
    var qrText: String?
    var codes: [String] = []
    var spokenCodes: [String] = []
    var accounts: [AccountMetadata] = []
    var statuses: [String] = []
    var outcomes: [(sentence: String, success: Bool)] = []
    func showQR(_ text: String, expires: Date) { qrText = text }
    func showCode(_ grouped: String, accessibilityLabel: String) {
        codes.append(grouped)
        spokenCodes.append(accessibilityLabel)
    }
    func showAccount(_ account: AccountMetadata) { accounts.append(account) }
    func showStatus(_ sentence: String) { statuses.append(sentence) }
    func showOutcome(_ sentence: String, success: Bool) { outcomes.append((sentence, success)) }
}

private struct PasswordDevice: SenderDevice {
    func reauthenticateAndReadPassword() async -> SecretBytes? { try? SecretBytes(utf8: "s3cret") }
}

/// Stores what it is given, the way a Keychain-backed importer would.
private actor RecordingImporter: AccountImporter {
    private(set) var stored: (AccountMetadata, [UInt8])?
    func importAccount(_ account: ImportedAccount) async -> ReceiptStatus {
        stored = (account.metadata, account.credential.withUnsafeBytes { Array($0) })
        account.credential.wipe()
        return .imported
    }
}

@MainActor private struct Devices {
    let clock = ManualHandoffClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let channels = InMemoryFrameChannel.pair()
    let senderUI = RecordingUI()
    let receiverUI = RecordingUI()
    let importer = RecordingImporter()
    let account: AccountMetadata
    let sender: SendAccountController
    let receiver: ReceiveAccountController

    init() throws {
        account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada Lovelace",
                                      emailAddress: "ada@example.org", username: "ada", imapHost: "imap.example.org",
                                      imapPort: 993, imapSecurity: .tls)
        sender = try SendAccountController(account: account, rendezvous: RendezvousToken(bytes: [1]),
                                           channel: channels.sender, registry: SenderRegistry(), ui: senderUI,
                                           device: PasswordDevice(), clock: clock)
        let receiverChannel = channels.receiver
        receiver = try ReceiveAccountController(scannedText: try #require(senderUI.qrText), importer: importer,
                                                registry: ReceiverRegistry(), ui: receiverUI, clock: clock,
                                                connect: { _ in receiverChannel })
    }
}

/// Waits (briefly) until `condition` holds; the drivers run on their own tasks.
@MainActor private func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<500 where !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(condition())
}

@MainActor @Suite struct ReadmeExampleTests {
    @Test func readmeShowsExactlyTheCompiledExample() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here.appendingPathComponent("IntegrationExample.swift"), encoding: .utf8)
        for part in ["sender", "receiver"] {
            let begin = try #require(source.range(of: "// README:begin \(part)\n"))
            let end = try #require(source.range(of: "// README:end \(part)"))
            let snippet = String(source[begin.upperBound..<end.lowerBound])
            #expect(readme.contains(snippet), "README.md must contain the \(part) example verbatim")
        }
    }

    @Test func theExampleControllersTransferAnAccount() async throws {
        let devices = try Devices()
        async let sent = devices.sender.run()
        async let received = devices.receiver.run()
        try await eventually { devices.senderUI.codes.count == 1 && devices.receiverUI.codes.count == 1 }
        #expect(devices.senderUI.codes == devices.receiverUI.codes)
        #expect(devices.senderUI.spokenCodes == devices.receiverUI.spokenCodes)
        await devices.sender.personConfirmedCode()
        try await eventually { devices.receiverUI.accounts == [devices.account] }
        await devices.receiver.personConfirmedCodeAndAccount()
        #expect(await sent == .completed(.imported))
        #expect(await received == .completed(.imported))
        let stored = try #require(await devices.importer.stored)
        #expect(stored.0 == devices.account)
        #expect(stored.1 == Array("s3cret".utf8))
        #expect(devices.senderUI.outcomes.map(\.sentence) == ["Done: the receiving device imported the account."])
        #expect(devices.receiverUI.outcomes.map(\.sentence) == ["Done: the account was imported."])
        #expect(devices.senderUI.outcomes.allSatisfy(\.success) && devices.receiverUI.outcomes.allSatisfy(\.success))
    }

    @Test func nobodyConfirmsAndBothSidesExpireWithoutPolling() async throws {
        let devices = try Devices()
        async let sent = devices.sender.run()
        async let received = devices.receiver.run()
        try await eventually { devices.receiverUI.codes.count == 1 }
        // Each driver sleeps until its one deadline: no timer fires before it.
        devices.clock.advance(by: 179)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(devices.senderUI.outcomes.isEmpty && devices.receiverUI.outcomes.isEmpty)
        devices.clock.advance(by: 1)  // the sender's expiry (lifetime 180 s)
        #expect(await sent == .ended(.expired))
        devices.clock.advance(by: 30)  // the receiver's clock-skew tolerance
        #expect(await received == .ended(.expired))
        #expect(devices.senderUI.outcomes.map(\.sentence) == ["The transfer expired before it finished; start a new transfer. The password was not sent."])
        #expect(devices.receiverUI.outcomes.map(\.sentence) == ["The code expired before the transfer finished; ask the sending device for a new code. Nothing was imported."])
    }

    @Test func theSendingPersonCancelsAfterComparingCodes() async throws {
        let devices = try Devices()
        async let sent = devices.sender.run()
        async let received = devices.receiver.run()
        try await eventually { devices.senderUI.codes.count == 1 }
        await devices.sender.personCancelled()
        #expect(await sent == .ended(.cancelled(by: .local)))
        #expect(await received == .ended(.cancelled(by: .peer)))
        #expect(await devices.importer.stored == nil)
        #expect(devices.receiverUI.outcomes.map(\.sentence) == ["The sending device cancelled the transfer. Nothing was imported."])
    }

    @Test func aLostConnectionEndsBothSidesTruthfully() async throws {
        let devices = try Devices()
        async let sent = devices.sender.run()
        async let received = devices.receiver.run()
        try await eventually { devices.receiverUI.codes.count == 1 }
        devices.channels.sender.cut()
        #expect(await sent == .ended(.failed(.transportLost)))
        #expect(await received == .ended(.failed(.transportLost)))
        #expect(devices.senderUI.outcomes.map(\.success) == [false])
        #expect(devices.receiverUI.outcomes.first?.sentence.hasSuffix("Nothing was imported.") == true)
    }
}
