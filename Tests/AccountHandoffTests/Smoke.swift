import Foundation
import Testing
@_spi(Testing) @testable import AccountHandoff
import AccountHandoffTestSupport

@Test func happyPathSmoke() throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                                      username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    let sender = try HandoffSender.start(account: account, rendezvous: try RendezvousToken(bytes: [1,2,3,4,5,6,7,8]),
                                         random: InsecureDeterministicRandom(seed: 1), now: now)
    let text = sender.payload.text
    print(text, text.count)
    let payload = try SessionPayload(text: text)
    #expect(payload == sender.payload)
    let (receiver, actions) = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 2), now: now)
    guard case .send(let hello) = actions[0], case .showShortCode(let rcode) = actions[1] else { Issue.record("no hello"); return }
    let a1 = try sender.handle(.frameReceived(hello), now: now)
    guard case .showShortCode(let scode) = a1[0] else { Issue.record("\(a1)"); return }
    #expect(scode == rcode)
    let a2 = try sender.handle(.codeConfirmed, now: now)
    guard case .send(let offer) = a2[0] else { Issue.record("\(a2)"); return }
    let a3 = try receiver.handle(.frameReceived(offer), now: now)
    guard case .showAccount(let shown) = a3[0] else { Issue.record("\(a3)"); return }
    #expect(shown == account)
    let a4 = try receiver.handle(.codeConfirmed, now: now)
    guard case .send(let accept) = a4[0] else { Issue.record("\(a4)"); return }
    let a5 = try sender.handle(.frameReceived(accept), now: now)
    guard case .requestCredential = a5[0] else { Issue.record("\(a5)"); return }
    let a6 = try sender.handle(.credentialProvided(SecretBytes(utf8: "hunter2")), now: now)
    guard case .send(let cred) = a6[0] else { Issue.record("\(a6)"); return }
    let a7 = try receiver.handle(.frameReceived(cred), now: now)
    guard case .deliverAccount(let imported) = a7[0] else { Issue.record("\(a7)"); return }
    #expect(imported.credential.withUnsafeBytes { Array($0) } == Array("hunter2".utf8))
    let a8 = try receiver.handle(.importFinished(.imported), now: now)
    guard case .send(let receipt) = a8[0], case .finished(.completed(.imported)) = a8[1] else { Issue.record("\(a8)"); return }
    let a9 = try sender.handle(.frameReceived(receipt), now: now)
    guard case .finished(.completed(.imported)) = a9[0] else { Issue.record("\(a9)"); return }
    #expect(sender.guardedSecrets.allSatisfy { $0.isAllZero })
    #expect(receiver.guardedSecrets.allSatisfy { $0.isAllZero })
}
