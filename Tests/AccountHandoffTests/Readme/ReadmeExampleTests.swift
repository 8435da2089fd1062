import AccountHandoff
import Foundation
import Testing

/// Connects the README's two controllers through memory, with people who confirm.
private final class Loopback: FrameTransport {
    var deliver: (([UInt8]) -> Void)?
    func send(_ frame: [UInt8]) { deliver?(frame) }
}

private final class RecordingUI: TransferUI {
    var qrText: String?
    var codes: [String] = []
    var accounts: [AccountMetadata] = []
    var outcomes: [TransferOutcome] = []
    var errors: [String] = []
    func showQR(_ text: String, expires: Date) { qrText = text }
    func showCode(_ grouped: String, accessibilityLabel: String) { codes.append(grouped) }
    func showAccount(_ account: AccountMetadata) { accounts.append(account) }
    func showOutcome(_ outcome: TransferOutcome) { outcomes.append(outcome) }
    func showError(_ sentence: String) { errors.append(sentence) }
}

private final class Device: SenderDevice, ReceiverDevice {
    var stored: (AccountMetadata, [UInt8])?
    func reauthenticateAndReadPassword(then: @escaping (SecretBytes) -> Void) { then(SecretBytes(utf8: "s3cret")) }
    func importAccount(_ account: ImportedAccount) -> ReceiptStatus {
        stored = (account.metadata, account.credential.withUnsafeBytes { Array($0) })
        return .imported
    }
}

@Suite struct ReadmeExampleTests {
    @Test func readmeShowsExactlyTheCompiledExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("IntegrationExample.swift"), encoding: .utf8)
        for part in ["sender", "receiver"] {
            let begin = try #require(source.range(of: "// README:begin \(part)\n"))
            let end = try #require(source.range(of: "// README:end \(part)"))
            let snippet = String(source[begin.upperBound..<end.lowerBound])
            #expect(readme.contains(snippet), "README.md must contain the \(part) example verbatim")
        }
    }

    @Test func theExampleControllersTransferAnAccountInMemory() throws {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                                          username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let toReceiver = Loopback(), toSender = Loopback()
        let senderUI = RecordingUI(), receiverUI = RecordingUI()
        let device = Device()
        let sender = try SenderController(account: account, rendezvous: RendezvousToken(bytes: [1]), registry: SenderRegistry(),
                                          transport: toReceiver, ui: senderUI, device: device)
        var receiver: ReceiverController?
        toSender.deliver = { sender.frameArrived($0) }
        toReceiver.deliver = { receiver?.frameArrived($0) }
        receiver = try ReceiverController(scannedText: try #require(senderUI.qrText), registry: ReceiverRegistry(),
                                          transport: toSender, ui: receiverUI, device: device)
        #expect(senderUI.codes == receiverUI.codes)
        sender.personConfirmedCode()
        #expect(receiverUI.accounts == [account])
        receiver?.personConfirmedCodeAndAccount()
        #expect(device.stored?.0 == account)
        #expect(device.stored?.1 == Array("s3cret".utf8))
        #expect(senderUI.outcomes == [.completed(.imported)])
        #expect(receiverUI.outcomes == [.completed(.imported)])
        #expect(senderUI.errors.isEmpty && receiverUI.errors.isEmpty)
    }
}
