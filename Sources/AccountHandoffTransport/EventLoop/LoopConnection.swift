/// Hears what happens on a ``LoopConnection``, on the loop thread.
protocol LoopConnectionDelegate: AnyObject {
    /// Bytes, the end of the stream or an error wait to be read: call
    /// ``LoopConnection/read(maximum:)``. Only while ``LoopConnection/isReading``.
    func connectionReadable(_ connection: LoopConnection)
    /// A write failed or missed its deadline; the connection is closed now.
    func connection(_ connection: LoopConnection, failed error: TransportError)
}

/// One TCP socket served by the ``EventLoop``: it reads only while its owner asks
/// (``isReading``), writes queued bytes as the socket takes them, each with a deadline, and
/// closes cleanly without blocking (stop sending, discard what the peer still sends until it
/// closes or the linger passes). Loop thread only.
final class LoopConnection: PollHandler, DeadlineTarget {
    private struct PendingWrite {
        var bytes: [UInt8]
        var offset = 0
        let deadline: ContinuousClock.Instant
        let completion: ((TransportError?) -> Void)?
    }

    private enum Phase {
        /// Waiting for a non-blocking connect to finish.
        case connecting(deadline: ContinuousClock.Instant, completion: (TransportError?) -> Void)
        case open
        /// Flushing, then discarding input until the peer closes or `deadline` passes.
        case closing(linger: Duration, deadline: ContinuousClock.Instant?, completion: () -> Void)
        case closed
    }

    let loop: EventLoop
    let socket: POSIXSocket
    weak var delegate: (any LoopConnectionDelegate)?
    private var token: UInt64?
    private var interest: PollInterest = []
    private var phase: Phase = .open
    private var writes: [PendingWrite] = []
    private var writeHead = 0
    /// Whether the owner wants to read.
    private(set) var isReading = false
    /// Whether any byte was queued for writing on it.
    private(set) var hasWritten = false
    /// The earliest wake-up this connection has pending, so it does not pile up wake-ups.
    private var pendingWake: ContinuousClock.Instant?

    /// Registers `socket` with `loop`, reading nothing yet.
    ///
    /// - Throws: when the kernel refuses the registration; the socket is closed then.
    init(loop: EventLoop, socket: POSIXSocket) throws(TransportError) {
        self.loop = loop
        self.socket = socket
        do { token = try loop.register(socket.descriptor, interest: [], handler: self) } catch {
            socket.close()
            throw error
        }
    }

    var isOpen: Bool {
        if case .open = phase { return true }
        if case .connecting = phase { return true }
        return false
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Bytes queued and not yet written.
    var hasPendingWrites: Bool { writeHead < writes.count }

    // MARK: Connecting

    /// Connects to `address:port` and calls `completion` once (on the loop thread), with `nil`
    /// when connected or the failure (the connection is closed then).
    func connect(to address: IPv4Address, port: UInt16, deadline: ContinuousClock.Instant,
                 completion: @escaping (TransportError?) -> Void) {
        do {
            if try socket.startConnect(address: address, port: port) {
                completion(nil)
                return
            }
        } catch {
            closeNow()
            completion(error)
            return
        }
        phase = .connecting(deadline: deadline, completion: completion)
        scheduleWake(at: deadline)
        updateInterest()
    }

    private func finishConnecting(_ failure: TransportError?) {
        guard case .connecting(_, let completion) = phase else { return }
        var failure = failure
        if failure == nil {
            do { try socket.finishConnect() } catch { failure = error }
        }
        phase = .open
        if let failure {
            closeNow()
            completion(failure)
            return
        }
        updateInterest()
        completion(nil)
    }

    // MARK: Reading

    /// Starts or stops reading: while stopped, the peer's bytes wait in the kernel, and the
    /// peer is slowed down by TCP itself.
    func setReading(_ reading: Bool) {
        guard isReading != reading else { return }
        isReading = reading
        updateInterest()
    }

    /// Reads at most `maximum` bytes: bytes, `[]` at end of stream, `nil` when nothing is there.
    func read(maximum: Int) throws(TransportError) -> [UInt8]? {
        try socket.readAvailable(maximum: maximum)
    }

    // MARK: Writing

    /// ``write(_:deadline:completion:)`` for a driver's `send`: `continuation` resumes once the
    /// bytes are written, or throws the failure.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant, resuming continuation: CheckedContinuation<Void, any Error>) {
        write(bytes, deadline: deadline) { failure in
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
        }
    }

    /// Queues `bytes` to be written by `deadline`; `completion`, if any, gets `nil` once the
    /// last byte went to the kernel, or the failure (the connection is closed then, and the
    /// delegate hears of it too).
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant, completion: ((TransportError?) -> Void)? = nil) {
        guard isOpen else {
            completion?(.closedLocally)
            return
        }
        hasWritten = true
        writes.append(PendingWrite(bytes: bytes, deadline: deadline, completion: completion))
        if case .connecting = phase {} else { flush() }
        if hasPendingWrites { scheduleWake(at: writes[writeHead].deadline) }
    }

    /// Writes what the socket takes now.
    private func flush() {
        while writeHead < writes.count {
            let pending = writes[writeHead]
            let written: Int
            do { written = try socket.writeSome(pending.bytes[pending.offset...]) } catch {
                fail(error)
                return
            }
            if written == 0 { break }
            writes[writeHead].offset += written
            guard writes[writeHead].offset == pending.bytes.count else { continue }
            writeHead += 1
            pending.completion?(nil)
            if isClosed { return }
        }
        if writeHead == writes.count {
            writes.removeAll(keepingCapacity: true)
            writeHead = 0
            if case .closing(let linger, nil, let completion) = phase { startLinger(linger, completion) }
        } else if writeHead > 32 {
            writes.removeFirst(writeHead)
            writeHead = 0
        }
        updateInterest()
    }

    // MARK: Closing

    /// Closes cleanly: queued bytes are written first (each by its deadline), then the
    /// connection stops sending and discards what the peer still sends until the peer closes
    /// or `linger` passes, so a reset cannot destroy bytes in flight. `completion` runs once,
    /// when the descriptor is closed. No delegate call follows.
    func closeGracefully(linger: Duration, completion: @escaping () -> Void) {
        switch phase {
        case .closed:
            completion()
        case .closing(let oldLinger, let deadline, let previous):
            phase = .closing(linger: oldLinger, deadline: deadline, completion: { previous(); completion() })
        case .connecting:
            closeNow()
            completion()
        case .open:
            delegate = nil
            isReading = false
            phase = .closing(linger: linger, deadline: nil, completion: completion)
            if !hasPendingWrites { startLinger(linger, completion) } else { updateInterest() }
        }
    }

    private func startLinger(_ linger: Duration, _ completion: @escaping () -> Void) {
        socket.shutdownWrite()
        let deadline = ContinuousClock.now + linger
        phase = .closing(linger: linger, deadline: deadline, completion: completion)
        scheduleWake(at: deadline)
        updateInterest()
    }

    /// Closes at once, discarding what is readable first. Queued writes fail with
    /// ``TransportError/closedLocally``; a graceful close in progress completes. No delegate
    /// call follows. Idempotent.
    func closeNow() {
        let previous = phase
        guard !isClosed else { return }
        phase = .closed
        delegate = nil
        isReading = false
        if let token {
            loop.unregister(socket.descriptor, token: token)
            self.token = nil
        }
        socket.discardReadable()
        socket.close()
        let failed = writes[writeHead...].compactMap(\.completion)
        writes.removeAll()
        writeHead = 0
        for completion in failed { completion(.closedLocally) }
        switch previous {
        case .closing(_, _, let completion): completion()
        case .connecting(_, let completion): completion(.closedLocally)
        case .open, .closed: break
        }
    }

    private func fail(_ error: TransportError) {
        let delegate = self.delegate
        if case .closing = phase {
            closeNow()
            return
        }
        // Fail the pending writes with the real cause, then close.
        let failed = writes[writeHead...].compactMap(\.completion)
        writes.removeAll()
        writeHead = 0
        closeNow()
        for completion in failed { completion(error) }
        delegate?.connection(self, failed: error)
    }

    // MARK: Events

    func handle(_ event: PollEvent) {
        switch phase {
        case .connecting:
            if event.writable || event.failed { finishConnecting(nil) }
        case .open:
            if hasPendingWrites, event.writable || event.failed { flush() }
            guard case .open = phase else { return }
            if isReading, event.readable || event.failed {
                delegate?.connectionReadable(self)
            } else if event.failed, !hasPendingWrites, !isReading {
                // An error or hang-up is reported whatever the interest; with nothing to read
                // or write now, stop listening until the owner reads again and meets it.
                detach()
            }
        case .closing(_, let deadline, _):
            if hasPendingWrites, event.writable || event.failed { flush() }
            guard deadline != nil, event.readable || event.failed else { return }
            // A few reads per event: a peer that keeps sending cannot hold the loop (the
            // level-triggered poller reports the rest next time, and the linger ends it).
            do {
                for _ in 0..<8 {
                    guard let chunk = try socket.readAvailable(maximum: 4096) else { return }
                    if chunk.isEmpty { closeNow(); return }
                }
            } catch {
                closeNow()
            }
        case .closed:
            break
        }
    }

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        switch phase {
        case .connecting(let deadline, let completion):
            if deadline <= now {
                phase = .open
                closeNow()
                completion(.timedOut)
                return
            }
            scheduleWake(at: deadline)
        case .open, .closing:
            if hasPendingWrites {
                if writes[writeHead].deadline <= now {
                    fail(.timedOut)
                    return
                }
                scheduleWake(at: writes[writeHead].deadline)
            }
            if case .closing(_, let deadline?, _) = phase {
                if deadline <= now { closeNow() } else { scheduleWake(at: deadline) }
            }
        case .closed:
            break
        }
    }

    private func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        loop.wake(self, at: instant)
    }

    // MARK: Interest

    private var detached = false

    private func detach() {
        guard let token, !detached else { return }
        loop.unregister(socket.descriptor, token: token)
        self.token = nil
        detached = true
        interest = []
    }

    private func updateInterest() {
        var wanted: PollInterest = []
        switch phase {
        case .connecting: wanted = .writable
        case .open:
            if isReading { wanted.insert(.readable) }
            if hasPendingWrites { wanted.insert(.writable) }
        case .closing(_, let deadline, _):
            if deadline != nil { wanted.insert(.readable) }
            if hasPendingWrites { wanted.insert(.writable) }
        case .closed:
            return
        }
        if detached {
            guard !wanted.isEmpty else { return }
            do { token = try loop.register(socket.descriptor, interest: wanted, handler: self) } catch {
                fail(error)
                return
            }
            detached = false
            interest = wanted
            return
        }
        guard wanted != interest, let token else { return }
        do { try loop.setInterest(socket.descriptor, token: token, interest: wanted) } catch {
            fail(error)
            return
        }
        interest = wanted
    }
}
