// A sending device that lies about the account: it runs the real sender state machine over
// the reference transport (loopback), and once a receiving device joined it seals an offer
// whose port or security value no honest sender may send (Spec 3.4), with the session's real
// keys, so that the receiver's own check is what refuses it. Not a product; `handoff` never
// links it (a lab tool for the CLI tests).
//
//   hostile-sender --port N | --security N
//
// Output: "Transfer code: AH:..." once it listens, then "Receiver joined; offer sent with
// port P, security S." and at the end "Sender ended: <outcome>". Exit 0 when the session
// ended, 1 on a failure of its own.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffTransport
import Foundation

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ line: String) -> Never {
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(1)
}

/// The offer's port, security byte and gate declaration, from the command line (valid ones by
/// default).
func requestedFields() -> (port: UInt16, security: UInt8, senderGate: UInt8) {
    var port: UInt16 = 993
    var security: UInt8 = 1
    var senderGate: UInt8 = 1
    var arguments = CommandLine.arguments.dropFirst()[...]
    while let name = arguments.popFirst() {
        guard let value = arguments.popFirst() else { fail("\(name) needs a value") }
        switch name {
        case "--port": port = UInt16(value) ?? { fail("--port takes 0...65535") }()
        case "--security": security = UInt8(value) ?? { fail("--security takes 0...255") }()
        case "--sender-gate": senderGate = UInt8(value) ?? { fail("--sender-gate takes 0...255") }()
        default: fail("usage: hostile-sender --port N | --security N | --sender-gate N")
        }
    }
    return (port, security, senderGate)
}

/// An honest account's offer plaintext (Spec 3.4) with its last four record bytes, the port,
/// the security value and the gate declaration, replaced.
func forgedOffer(_ account: AccountMetadata, port: UInt16, security: UInt8, senderGate: UInt8) -> [UInt8] {
    var plaintext = AccountMetadataCodec.encode(account, senderGate: .asks)
    let recordLength = Int(plaintext[0]) << 8 | Int(plaintext[1])
    let portOffset = 2 + recordLength - 4
    plaintext[portOffset] = UInt8(port >> 8)
    plaintext[portOffset + 1] = UInt8(port & 0xFF)
    plaintext[portOffset + 2] = security
    plaintext[portOffset + 3] = senderGate
    return plaintext
}

let (port, security, senderGate) = requestedFields()
let account: AccountMetadata
let listener: FrameListener
let sender: HandoffSender
do {
    account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada Lovelace", emailAddress: "ada@example.org",
                                  username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    listener = try FrameListener()
    sender = try HandoffSender.start(account: account, rendezvous: listener.rendezvous.token,
                                     configuration: SenderConfiguration(lifetime: SenderConfiguration.maximumLifetime),
                                     random: SystemRandomSource(), now: Date(), registry: .inMemory())
} catch {
    fail("hostile-sender could not start: \(error)")
}
await listener.serve(sender.payload)
say("Transfer code: \(sender.payload.text)")

var offered = false
loop: while let event = try? await listener.receive() {
    switch event {
    case .peerLeft:
        guard offered else { continue }
        say("Sender ended: the receiving device left")
        break loop
    case .typedConnection, .typedNameTaken:
        continue  // this sender offers no typed way
    case .frame(let bytes, let peer):
        guard let step = try? sender.handle(.frameReceived(bytes), now: Date()) else { continue }
        for action in step.actions {
            switch action {
            case .send(let frame), .reply(let frame):
                try? await listener.send(frame, to: peer)
            case .askForCode:
                // The reveal went out; an honest sender would now wait for its person to type
                // the receiver's code. This one seals its forged offer at once.
                await listener.bind(peer)
                guard let offer = sender.sealForgedFrame(.offer, plaintext: forgedOffer(account, port: port, security: security, senderGate: senderGate),
                                                         linkID: nil) else {
                    fail("hostile-sender could not seal its offer")
                }
                try? await listener.send(offer, to: peer)
                offered = true
                say("Receiver joined; offer sent with port \(port), security \(security), sender gate \(senderGate).")
            case .finished(let outcome):
                say("Sender ended: \(outcome)")
                break loop
            case .codeMismatch, .requestCredential, .anotherDeviceJoined, .ignored,
                 .startTypedRun, .pairedByTypedCode, .typedCodeReplaced, .typedCodeRetired, .typedWayWithdrawn:
                break
            }
        }
    }
}
await listener.close()
exit(0)
