import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// Spec 8.3 "Malicious relay or server" and 11.9: a relay that misbehaves in every way it can
/// gets nothing. In every case both devices end with the exact pair of outcomes that tells
/// each person the truth, the relay's recorded bytes hold none of the secrets (the password,
/// the account's strings and link ID, the short code, the QR's commitment, key and text, the
/// admission key), and nothing is imported but what the sender sent.
@Suite(.timeLimit(.minutes(10))) struct HostileRelayTests {
    /// What the test does while the transfer runs, once the relay did something.
    enum Move: Sendable {
        case none
        /// Makes the code expire (both devices' clocks) once the relay's log has this line.
        case expireAfter(String)
        /// Makes the code expire once the relay's log has this line and the receiving device's
        /// session has ended (it saw what the relay did first).
        case expireOnceTheReceiverEnded(String)
        /// The sending person cancels once the relay's log has this line.
        case senderCancelsAfter(String)
    }

    /// A transfer through a hostile relay, checked the same way whatever the relay did.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let behaviour: HostileRelay.Behaviour
        let sent: SenderOutcome
        let received: ReceiverOutcome
        var move: Move = .none
        /// How long the receiver waits at the relay.
        var pairingWithin: Duration = Patience.deadline
        var receiverConfiguration = RelayedTransfer.configuration
        /// What the relay must have done (a prefix of one of its log lines), so the case
        /// cannot pass without the attack having happened.
        var relayDid: String
        var testDescription: String { name }
    }

    /// Frame sizes of this account's session with the wire's length prefix (Spec 3, 11.5):
    /// reveal 2 + 72, offer 2 + 296 (one 256-byte block), credential 2 + 1064; the challenge
    /// is 28 bytes (pinned by ``whatAnHonestRelaySees()``).
    static let challenge = 28, reveal = 74, offer = 298, credential = 1066

    static let cases: [Case] = [
        Case(name: "drops the credential", behaviour: .honest(tamper: Tampers.dropping(type: .credential), closeAfter: nil),
             sent: .deliveredUnconfirmed(.expired), received: .ended(.expired), move: .expireAfter("dropped"), relayDid: "dropped"),
        Case(name: "delays every frame by 300 ms", behaviour: .honest(tamper: Tampers.delaying(.milliseconds(300)), closeAfter: nil),
             sent: .completed(.imported), received: .completed(.imported), relayDid: "delayed"),
        Case(name: "duplicates every frame", behaviour: .honest(tamper: Tampers.duplicating, closeAfter: nil),
             sent: .completed(.imported), received: .completed(.imported), relayDid: "duplicated"),
        Case(name: "reorders: holds the offer until the sender's abort passed it", behaviour: .honest(tamper: Tampers.ReorderedOffer().tamper, closeAfter: nil),
             sent: .ended(.cancelled(by: .local)), received: .ended(.cancelled(by: .peer)), move: .senderCancelsAfter("holding the offer"),
             relayDid: "delivered the abort before the offer"),
        Case(name: "truncates the credential and closes", behaviour: .honest(tamper: Tampers.truncating(type: .credential), closeAfter: nil),
             sent: .deliveredUnconfirmed(.failed(.transportLost)), received: .ended(.failed(.transportLost)), relayDid: "truncated"),
        Case(name: "flips a bit in the offer", behaviour: .honest(tamper: Tampers.flipping(type: .offer), closeAfter: nil),
             sent: .ended(.expired), received: .ended(.expired), move: .expireAfter("flipped"), relayDid: "flipped"),
        Case(name: "flips a bit in the admission response", behaviour: .honest(tamper: Tampers.flippingTheResponse, closeAfter: nil),
             sent: .ended(.expired), received: .ended(.failed(.transportLost)), move: .expireOnceTheReceiverEnded("flipped"), relayDid: "flipped"),
        Case(name: "injects a forged frame before each real one after the hello", behaviour: .honest(tamper: Tampers.injecting, closeAfter: nil),
             sent: .completed(.imported), received: .completed(.imported), relayDid: "injected"),
        Case(name: "injects a forged hello before the receiver's", behaviour: .honest(tamper: Tampers.injectingAHello, closeAfter: nil),
             sent: .ended(.expired), received: .ended(.failed(.transportLost)), move: .expireOnceTheReceiverEnded("injected"), relayDid: "injected"),
        Case(name: "pairs the sender with an attacker first", behaviour: .pairsTheSenderWithAnAttacker,
             sent: .completed(.imported), received: .completed(.imported), relayDid: "the sender closed the attacker's connection"),
        Case(name: "pairs the receiver with an impostor of the sender", behaviour: .impersonatesTheSender,
             sent: .ended(.expired), received: .ended(.failed(.transportLost)), move: .expireOnceTheReceiverEnded("took the receiver's"),
             relayDid: "took the receiver's"),
        Case(name: "pairs two senders", behaviour: .pairsTwoSenders,
             sent: .completed(.imported), received: .completed(.imported), relayDid: "paired two sender connections"),
        Case(name: "never pairs and holds every connection open", behaviour: .neverPairs,
             sent: .ended(.expired), received: .ended(.expired), move: .expireAfter("held receiver"), pairingWithin: .seconds(8),
             relayDid: "held receiver"),
        Case(name: "says ok to every connection and swallows everything", behaviour: .blackHole,
             sent: .ended(.expired), received: .ended(.expired), move: .expireAfter("ok to receiver"), pairingWithin: .seconds(6),
             receiverConfiguration: shortAdmission, relayDid: "ok to receiver"),
        Case(name: "closes after 14 bytes (inside the challenge), then behaves", behaviour: .honest(tamper: nil, closeAfter: challenge / 2),
             sent: .completed(.imported), received: .completed(.imported), relayDid: "closed both after 14"),
        Case(name: "closes in the middle of the offer", behaviour: .honest(tamper: nil, closeAfter: challenge + reveal + offer / 2),
             sent: .ended(.failed(.transportLost)), received: .ended(.failed(.transportLost)), relayDid: "closed both after"),
        Case(name: "closes in the middle of the credential", behaviour: .honest(tamper: nil, closeAfter: challenge + reveal + offer + credential / 2),
             sent: .deliveredUnconfirmed(.failed(.transportLost)), received: .ended(.failed(.transportLost)), relayDid: "closed both after"),
        Case(name: "closes right after the credential, before the receipt",
             behaviour: .honest(tamper: nil, closeAfter: challenge + reveal + offer + credential),
             sent: .deliveredUnconfirmed(.failed(.transportLost)), received: .completed(.imported), relayDid: "closed both after"),
    ]

    /// The receiver waits only 2 s for a challenge after the relay's `ok`, so a black hole
    /// sends it back to the relay often.
    static let shortAdmission = TransportConfiguration(connectTimeout: .seconds(10), admissionTimeout: .seconds(2), bindTimeout: .seconds(60),
                                                       readTimeout: .seconds(60), writeTimeout: .seconds(30), closeLinger: .milliseconds(200))

    @Test(arguments: cases)
    func aHostileRelayGetsNothing(_ hostile: Case) async throws {
        let relay = try HostileRelay(hostile.behaviour)
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        // The sender waits at the relay first; the relay takes the first side it sees for the sender's.
        #expect(await Loopback.eventually { relay.handshakeCount >= 1 })
        #expect(relay.senderSide == transfer.keys.senderSide)
        let receiver = try transfer.receiver(pairingWithin: hostile.pairingWithin, configuration: hostile.receiverConfiguration)
        let (sent, received) = await transfer.run(receiver) {
            switch hostile.move {
            case .none:
                return
            case .expireAfter(let line):
                while !relay.did(line) { try? await Task.sleep(for: .milliseconds(20)) }
                transfer.expire()
            case .expireOnceTheReceiverEnded(let line):
                while !relay.did(line) { try? await Task.sleep(for: .milliseconds(20)) }
                while await receiver.outcome == nil { try? await Task.sleep(for: .milliseconds(20)) }
                transfer.expire()
            case .senderCancelsAfter(let line):
                while !relay.did(line) { try? await Task.sleep(for: .milliseconds(20)) }
                await transfer.sender.cancel()
            }
        }
        #expect(sent == hostile.sent, "\(relay.log)")
        #expect(received == hostile.received, "\(relay.log)")
        #expect(relay.did(hostile.relayDid), "\(relay.log)")
        check(transfer, relay: relay, shortCode: await transfer.code.code, imported: received == .completed(.imported))
    }

    /// A relay that recorded a whole session replays it into the next one: the old receiver's
    /// bytes to the new sender (its response answers another challenge: refused before any
    /// frame), the old sender's bytes to the new receiver (another session hint: not this
    /// QR's sender, so it connects again). The new transfer completes; the session saw only
    /// the new hello.
    @Test func aReplayedOldSessionGetsNowhere() async throws {
        let recorder = try HostileRelay(.honest(tamper: nil, closeAfter: nil))
        defer { recorder.stop() }
        let old = try await RelayedTransfer.start(relayPort: recorder.port)
        #expect(await Loopback.eventually { recorder.handshakeCount >= 1 })
        let (oldSent, oldReceived) = await old.run(try old.receiver())
        #expect(oldSent == .completed(.imported))
        #expect(oldReceived == .completed(.imported))
        let toReceiver = recorder.stream(.senderToReceiver), toSender = recorder.stream(.receiverToSender)
        #expect(toReceiver.count == Self.challenge + Self.reveal + Self.offer + Self.credential)

        let relay = try HostileRelay(.replays(senderToReceiver: toReceiver, receiverToSender: toSender))
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        #expect(await Loopback.eventually { relay.handshakeCount >= 1 })
        let routes = RouteLog()
        let (sent, received) = await transfer.run(try transfer.receiver(progress: routes.note))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        #expect(relay.did("replayed \(toSender.count) old bytes to the sender"))
        #expect(relay.did("replayed \(toReceiver.count) old bytes to the receiver"))
        let relayAddress = try #require(TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: relay.port))
        #expect(routes.events.contains(.relayRetrying(relayAddress, .notAHandoffSender)))
        let statistics = await transfer.listener.statistics
        #expect(statistics.refusedAdmission >= 1)
        #expect(statistics.hellosHandedOver == 1)
        check(transfer, relay: relay, shortCode: await transfer.code.code, imported: true)
        check(old, relay: recorder, shortCode: await old.code.code, imported: true)
    }

    /// Spec 11.9: what a relay sees of a session is its sizes and timing. The sender's side
    /// carries the challenge, reveal, offer and credential; the receiver's the response,
    /// hello, accept and receipt; each the same size whatever the account and the password.
    @Test func whatAnHonestRelaySees() async throws {
        let relay = try HostileRelay(.honest(tamper: nil, closeAfter: nil))
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        #expect(await Loopback.eventually { relay.handshakeCount >= 1 })
        let (sent, received) = await transfer.run(try transfer.receiver())
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        let units = relay.copiedUnits
        #expect(units.filter { $0.direction == .senderToReceiver }.map(\.bytes.count) == [Self.challenge, Self.reveal, Self.offer, Self.credential])
        #expect(units.filter { $0.direction == .receiverToSender }.map(\.bytes.count) == [20, 2 + 88, 2 + 41, 2 + 41])
        #expect(units.compactMap(\.type) == [MessageType.hello, .reveal, .offer, .accept, .credential, .receipt].map(\.rawValue)
            || Set(units.compactMap(\.type)) == Set([MessageType.hello, .reveal, .offer, .accept, .credential, .receipt].map(\.rawValue)))
        // Every handshake names the QR's relay token; the sender's side is the QR's (on its
        // first connection and on the next one it opened once that was paired, before the
        // hello bound it), the receiver's is fresh.
        let lines = String(decoding: relay.receivedBytes, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("please relay ") }
        let senderLine = "please relay \(Hex.encode(transfer.keys.relayToken)) for side \(Hex.encode(transfer.keys.senderSide))"
        #expect(lines.first.map(String.init) == senderLine)
        #expect(lines.count(where: { $0 != senderLine }) == 1)
        #expect(lines.allSatisfy { $0.hasPrefix("please relay \(Hex.encode(transfer.keys.relayToken)) for side ") && $0.count == 13 + 64 + 10 + 16 })
        check(transfer, relay: relay, shortCode: await transfer.code.code, imported: true)
    }

    /// Nothing secret in what the relay saw; nothing imported but what was sent.
    private func check(_ transfer: RelayedTransfer, relay: HostileRelay, shortCode: ShortCode?, imported: Bool) {
        let seen = relay.receivedBytes
        #expect(seen.count > 100)
        for secret in transfer.secrets(shortCode: shortCode) {
            #expect(!seen.contains(bytes: secret.bytes), "the relay saw the \(secret.name)")
        }
        let imports = transfer.importer.record.all
        #expect(imports.count == (imported ? 1 : 0))
        for entry in imports {
            #expect(entry.password == Array(RelayedTransfer.password.utf8))
            #expect(entry.metadata.linkID == RelayedTransfer.account.linkID)
            #expect(entry.metadata.displayName == RelayedTransfer.account.displayName)
            #expect(entry.metadata.emailAddress == RelayedTransfer.account.emailAddress)
            #expect(entry.metadata.username == RelayedTransfer.account.username)
            #expect(entry.metadata.imapHost == RelayedTransfer.account.imapHost)
            #expect(entry.metadata.imapPort == RelayedTransfer.account.imapPort)
        }
    }
}
