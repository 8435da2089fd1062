import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Shared pieces for tests that run real sockets on 127.0.0.1.
enum Loopback {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let fast = TransportConfiguration(connectTimeout: .seconds(2), tagTimeout: .milliseconds(300),
                                             helloTimeout: .milliseconds(600), readTimeout: .milliseconds(300),
                                             writeTimeout: .seconds(2), closeLinger: .milliseconds(200),
                                             maximumConnections: 4, maximumIgnoredFrames: 3)

    /// For whole sessions through the drivers, which run on the threads that all tests' async
    /// code shares: while other suites keep those busy (2 on a 2-core machine) a driver can
    /// wait many seconds for its turn, so the admission and read deadlines are a minute (these
    /// tests are about the session over real sockets; `FloodTests` pins the deadlines). A
    /// short linger keeps the tests quick.
    static let sessions = TransportConfiguration(connectTimeout: .seconds(60), tagTimeout: .seconds(60),
                                                 helloTimeout: .seconds(60), readTimeout: .seconds(60),
                                                 writeTimeout: .seconds(60), closeLinger: .milliseconds(200))

    static func account() throws -> AccountMetadata {
        try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                            username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }

    /// A listener and a sender whose QR names it.
    static func sender(configuration: TransportConfiguration = fast, seed: UInt64 = 1) throws -> (FrameListener, HandoffSender) {
        let listener = try FrameListener(random: InsecureDeterministicRandom(seed: seed), configuration: configuration)
        let sender = try HandoffSender.start(account: account(), rendezvous: listener.rendezvous.token,
                                             random: InsecureDeterministicRandom(seed: seed + 100), now: now)
        return (listener, sender)
    }

    /// A receiver's hello for `payload`, as bytes, from a scan with `seed`.
    static func hello(for payload: SessionPayload, seed: UInt64) throws -> [UInt8] {
        let (_, step) = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: seed), now: now)
        guard case .send(let bytes)? = step.actions.first else { throw CancellationError() }
        return bytes
    }

    /// The next event within a second, or a recorded failure.
    static func event(_ listener: FrameListener, timeout: Duration = .seconds(2)) throws -> FrameListener.Event {
        try #require(try listener.next(timeout: timeout))
    }

    /// A raw socket connected to the listener that sends `bytes` (no preamble unless included).
    static func rawConnection(to rendezvous: TCPRendezvous, sending bytes: [UInt8]) throws -> POSIXSocket {
        let socket = try POSIXSocket.makeTCP()
        try socket.connect(address: rendezvous.address, port: rendezvous.port, timeout: .seconds(2))
        if !bytes.isEmpty { try socket.writeAll(bytes, until: .now + .seconds(2)) }
        return socket
    }

    /// What the peer of `socket` did within `timeout`: `.closed` at end of stream or reset,
    /// `.open` when nothing arrived.
    static func peerState(of socket: POSIXSocket, within timeout: Duration = .seconds(2)) -> PeerState {
        guard (try? socket.wait(for: Int16(POLLIN), until: .now + timeout)) == true else { return .open }
        do {
            guard let bytes = try socket.readAvailable() else { return .open }
            return bytes.isEmpty ? .closed : .sent(bytes)
        } catch {
            return .closed
        }
    }

    enum PeerState: Equatable {
        case open, closed, sent([UInt8])
    }

    /// The frame bytes of the first `.send` action.
    static func sent(_ actions: [SenderAction]) -> [UInt8]? {
        for action in actions { if case .send(let bytes) = action { return bytes } }
        return nil
    }
}
