/// One connection to a transit relay, on the loop thread only (Spec 11.7): connect, send the
/// handshake line, and wait for `ok\n`. It reads at most the three bytes of `ok\n`, so whatever
/// the other device sends right after the pairing stays in the socket for admission (11.4).
/// On `ok` it hands over the connection, registered with the loop and not reading; on any
/// other answer, a close, or the pairing deadline, it closes the connection and reports why.
final class RelayDialer: LoopConnectionDelegate, DeadlineTarget {
    typealias Completion = (Result<LoopConnection, TransportError>) -> Void

    let loop: EventLoop
    private let configuration: TransportConfiguration
    private let line: [UInt8]
    private let pairingDeadline: ContinuousClock.Instant?
    private var link: LoopConnection?
    private var received: [UInt8] = []
    private var onConnected: (() -> Void)?
    private var completion: Completion?
    private var pendingWake: ContinuousClock.Instant?

    /// A dialer that sends `line`; `completion` runs once, on the loop thread.
    ///
    /// - Parameters:
    ///   - pairingDeadline: when to give up waiting for `ok` (``TransportError/relayNotPaired``);
    ///     `nil` waits as long as the relay keeps the connection.
    ///   - onConnected: runs once the TCP connection exists and the line is queued.
    init(loop: EventLoop, configuration: TransportConfiguration, line: [UInt8], pairingDeadline: ContinuousClock.Instant?,
         onConnected: (() -> Void)? = nil, completion: @escaping Completion) {
        self.loop = loop
        self.configuration = configuration
        self.line = line
        self.pairingDeadline = pairingDeadline
        self.onConnected = onConnected
        self.completion = completion
    }

    /// Connects to the relay at `address:port`.
    func start(address: IPv4Address, port: UInt16) {
        let link: LoopConnection
        do { link = try LoopConnection(loop: loop, socket: POSIXSocket.makeTCP()) } catch {
            finish(.failure(error))
            return
        }
        self.link = link
        link.delegate = self
        if let pairingDeadline { scheduleWake(at: pairingDeadline) }
        var connectDeadline = ContinuousClock.now + configuration.connectTimeout
        if let pairingDeadline { connectDeadline = min(connectDeadline, pairingDeadline) }
        link.connect(to: address, port: port, deadline: connectDeadline) { [self] failure in
            if let failure {
                let pairingEnded = pairingDeadline.map { $0 <= ContinuousClock.now } ?? false
                finish(.failure(failure == .timedOut && pairingEnded ? .relayNotPaired : failure))
                return
            }
            link.write(line, deadline: .now + configuration.writeTimeout)
            link.setReading(true)
            let connected = onConnected
            onConnected = nil
            connected?()
        }
    }

    /// Stops dialing; the completion gets ``TransportError/closedLocally``.
    func cancel() {
        finish(.failure(.closedLocally))
    }

    private func finish(_ result: Result<LoopConnection, TransportError>) {
        guard let completion else { return }
        self.completion = nil
        onConnected = nil
        switch result {
        case .success(let link):
            link.setReading(false)
            link.delegate = nil
            self.link = nil
        case .failure:
            link?.closeNow()
            link = nil
        }
        completion(result)
    }

    // MARK: LoopConnectionDelegate

    func connectionReadable(_ connection: LoopConnection) {
        guard completion != nil, let link else { return }
        do throws(TransportError) {
            while true {
                guard let chunk = try link.read(maximum: RelayHandshake.okay.count - received.count) else { return }
                guard !chunk.isEmpty else { throw .relayClosed }
                received += chunk
                if try RelayHandshake.isPaired(received) {
                    finish(.success(link))
                    return
                }
            }
        } catch .closedByPeer {
            finish(.failure(.relayClosed))
        } catch {
            finish(.failure(error))
        }
    }

    func connection(_ connection: LoopConnection, failed error: TransportError) {
        finish(.failure(error == .closedByPeer ? .relayClosed : error))
    }

    // MARK: Deadlines

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        guard completion != nil, let pairingDeadline else { return }
        if pairingDeadline <= now { finish(.failure(.relayNotPaired)) } else { scheduleWake(at: pairingDeadline) }
    }

    private func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        loop.wake(self, at: instant)
    }
}
