import HandoffCLI
import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffTransitRelay
import AccountHandoffTransport
import Foundation

/// Whole transfers through Debian's transit relay on 127.0.0.1 (Spec 11.7): what one session
/// costs on the wire through the relay (bytes each way, the relay's own count, the handshake,
/// the flights the devices wait for) and how long it takes from the scan to the code on the
/// receiving screen, the sender already waiting at the relay. People answer at once.
struct RelayBench {
    let repetitions: Int

    /// What `--json` prints under `relay`.
    struct Result: Codable, Equatable {
        /// The relay's command, or why it is missing.
        let relay: String
        let available: Bool
        let sessions: Int
        /// From the receiver's start (the scan) to its code on screen, milliseconds.
        let scanToCodeMilliseconds: Spread?
        /// From the scan to both outcomes, milliseconds.
        let transferMilliseconds: Spread?
        /// Sender to receiver: the challenge and the frames with their length prefixes.
        let bytesSenderToReceiver: Int?
        let bytesReceiverToSender: Int?
        let framesSenderToReceiver: Int?
        let framesReceiverToSender: Int?
        /// What the relay itself counted for the session's pair (its usage record).
        let relayCopiedBytes: Int?
        /// The two handshake lines and the two `ok` answers of the pair.
        let handshakeBytes: Int?
        /// Times the traffic between the devices changed direction, plus one: each flight
        /// crosses the relay; the scan-to-code path is the relay handshake and these.
        let flights: Int?
        let flightsBeforeCode: Int?

        enum CodingKeys: String, CodingKey {
            case relay, available, sessions
            case scanToCodeMilliseconds = "scan_to_code_ms", transferMilliseconds = "transfer_ms"
            case bytesSenderToReceiver = "bytes_sender_to_receiver", bytesReceiverToSender = "bytes_receiver_to_sender"
            case framesSenderToReceiver = "frames_sender_to_receiver", framesReceiverToSender = "frames_receiver_to_sender"
            case relayCopiedBytes = "relay_copied_bytes", handshakeBytes = "handshake_bytes", flights
            case flightsBeforeCode = "flights_before_code"
        }

        static func missing(_ reason: String) -> Result {
            Result(relay: reason, available: false, sessions: 0, scanToCodeMilliseconds: nil, transferMilliseconds: nil,
                   bytesSenderToReceiver: nil, bytesReceiverToSender: nil, framesSenderToReceiver: nil, framesReceiverToSender: nil,
                   relayCopiedBytes: nil, handshakeBytes: nil, flights: nil, flightsBeforeCode: nil)
        }
    }

    func run() async throws(BenchFailure) -> Result {
        let relay: TransitRelay
        do { relay = try await TransitRelay.started() } catch { return .missing(error.description) }
        defer { relay.stop() }
        var scanToCode: [Double] = [], transfer: [Double] = []
        var last: OneTransfer?
        for _ in 0..<repetitions {
            let run = try await OneTransfer.run(relayPort: relay.port)
            scanToCode.append(run.scanToCode)
            transfer.append(run.total)
            last = run
        }
        guard let last else { throw BenchFailure("no relay session ran") }
        // The pair that carried the session writes its record when it closes.
        var copied: Int?
        for _ in 0..<100 where copied == nil {
            copied = relay.usage().last { $0.mood == "happy" }?.totalBytes
            if copied == nil { try? await Task.sleep(for: .milliseconds(20)) }
        }
        let lineBytes = RelayHandshake.line(relayToken: [UInt8](repeating: 0, count: 32), side: [UInt8](repeating: 0, count: 8)).count
        return Result(relay: relay.commandLine, available: true, sessions: repetitions,
                      scanToCodeMilliseconds: Spread(scanToCode, decimals: 1), transferMilliseconds: Spread(transfer, decimals: 1),
                      bytesSenderToReceiver: last.traffic.bytesIn, bytesReceiverToSender: last.traffic.bytesOut,
                      framesSenderToReceiver: last.traffic.framesIn, framesReceiverToSender: last.traffic.framesOut,
                      relayCopiedBytes: copied, handshakeBytes: 2 * (lineBytes + RelayHandshake.okay.count),
                      flights: last.traffic.flights(), flightsBeforeCode: last.traffic.flights(before: last.codeEvent))
    }
}

/// One transfer through the relay, timed from the receiver's start.
private struct OneTransfer {
    let scanToCode: Double
    let total: Double
    let traffic: TrafficLog.Snapshot
    /// How many traffic events the receiver had seen when its code showed.
    let codeEvent: Int

    static func run(relayPort: UInt16) async throws(BenchFailure) -> OneTransfer {
        do {
            let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Bench Account", emailAddress: "bench@example.org",
                                              username: "bench", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
            let relay = try TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: relayPort)!
            let listener = try FrameListener(relay: relay, advertisesDirectAddress: false)
            let sender = HandoffSenderSession(account: account, rendezvous: listener.rendezvous.token, channel: listener,
                                              credential: { _ in try SecretBytes(utf8: "bench-password") },
                                              authenticator: ScriptedAuthenticator(always: .authenticated), registry: SenderRegistry.inMemory())
            let sending = Task { await sender.run() }
            guard let payload = await sender.shownCode() else { throw BenchFailure("the relay bench's sender showed no code") }
            for await status in listener.relayStatus {
                if case .waiting = status { break }
            }
            let traffic = TrafficLog()
            let receiver = HandoffReceiverSession(payload: payload, importer: RecordingImporter(),
                                                  authenticator: ScriptedAuthenticator(always: .authenticated), registry: ReceiverRegistry.inMemory()) { payload in
                let channel = try await ConnectionFrameChannel.connect(to: payload)
                traffic.admitted()
                return CountingChannel(channel, log: traffic)
            }
            let codeShown = CodeShownClock()
            let people = RelayBenchPeople.confirmBoth(sender, receiver, codeShown: codeShown, traffic: traffic)
            let start = ContinuousClock.now
            let received = await receiver.run()
            let sent = await sending.value
            let end = ContinuousClock.now
            await people.value
            guard sent == .completed(.imported), received == .completed(.imported), let (shownAt, codeEvent) = codeShown.value else {
                throw BenchFailure("a relay bench session did not complete (\(sent.identifier), \(received.identifier))")
            }
            return OneTransfer(scanToCode: milliseconds(shownAt - start), total: milliseconds(end - start), traffic: traffic.snapshot,
                               codeEvent: codeEvent)
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure("the relay bench could not start a session: \(error)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// The people of a bench transfer: the sending person types the receiving screen's code at
/// once, the receiving person accepts at once; the moment the code shows is noted.
private enum RelayBenchPeople {
    static func confirmBoth(_ sender: HandoffSenderSession, _ receiver: HandoffReceiverSession<RecordingImporter>,
                            codeShown: CodeShownClock, traffic: TrafficLog) -> Task<Void, Never> {
        let screen = ReceivingScreen()
        return Task {
            let sendingPerson = Task {
                for await update in sender.updates {
                    if case .receiverJoined = update, let code = await screen.read() { _ = try? await sender.enterCode(code.grouped) }
                }
            }
            for await update in receiver.updates {
                switch update {
                case .codeReady(let code):
                    codeShown.note(events: traffic.snapshot.events.count)
                    await screen.show(code)
                case .accountOffered: try? await receiver.accept()
                case .finished: await screen.close()
                default: break
                }
            }
            await screen.close()
            await sendingPerson.value
        }
    }
}

/// When the code showed, and how many traffic events had happened then.
private final class CodeShownClock: @unchecked Sendable {
    // Safety of @unchecked Sendable: `noted` is only touched under `lock`.
    private let lock = NSLock()
    private var noted: (ContinuousClock.Instant, Int)?

    func note(events: Int) { lock.withLock { if noted == nil { noted = (.now, events) } } }
    var value: (ContinuousClock.Instant, Int)? { lock.withLock { noted } }
}
