import AccountHandoff
import Foundation

/// A receiver's connect (Spec 11.8): the direct address first, the relay once the direct
/// attempt failed or had its head start, and the first admitted connection wins; the other is
/// closed. Each attempt waits on the event loop; nothing here blocks a thread.
struct RouteRace: Sendable {
    let keys: TransportKeys
    let configuration: TransportConfiguration
    let loop: EventLoop
    let progress: @Sendable (ConnectionProgress) -> Void
    /// When waiting at the relay ends: the code's expiry plus the skew tolerance.
    let pairingDeadline: ContinuousClock.Instant

    private enum Route { case direct, relay }

    /// The first admitted connection of the routes given (at least one).
    func run(direct: TCPRendezvous.Endpoint?, relay: TCPRendezvous.Relay?) async throws -> ConnectionFrameChannel {
        switch (direct, relay) {
        case (let endpoint?, nil):
            progress(.connectingDirectly(endpoint))
            return try await connectDirectly(endpoint)
        case (nil, let relay?):
            return try await connectThroughRelay(relay)
        case (let endpoint?, let relay?):
            return try await race(endpoint, relay)
        case (nil, nil):
            throw TransportError.unsupportedRendezvous(.noRoute)
        }
    }

    private func race(_ endpoint: TCPRendezvous.Endpoint, _ relay: TCPRendezvous.Relay) async throws -> ConnectionFrameChannel {
        let headStart = HeadStart()
        return try await withThrowingTaskGroup(of: (Route, Result<ConnectionFrameChannel, any Error>).self) { group in
            progress(.connectingDirectly(endpoint))
            group.addTask {
                do { return (.direct, .success(try await connectDirectly(endpoint))) } catch {
                    if let transport = error as? TransportError, transport != .codeRenewed { progress(.directFailed(endpoint, transport)) }
                    headStart.release()
                    return (.direct, .failure(error))
                }
            }
            group.addTask {
                let released = await headStart.wait(for: configuration.directHeadStart)
                // Cancelled: the direct connection won (or the connect was given up), so the
                // head start did not run out and the relay is not tried.
                guard !Task.isCancelled else { return (.relay, .failure(CancellationError())) }
                if !released { progress(.directSlow(endpoint, configuration.directHeadStart)) }
                do { return (.relay, .success(try await connectThroughRelay(relay))) } catch { return (.relay, .failure(error)) }
            }
            var failures: [Route: any Error] = [:]
            while let (route, result) = try await group.next() {
                switch result {
                case .success(let channel):
                    await closeTheOthers(in: &group)
                    return channel
                case .failure(let error):
                    failures[route] = error
                    if case .direct = route {
                        if error is CancellationError || (error as? TransportError) == .codeRenewed {
                            // The sender serves another QR now: the relay, under this QR's token, cannot reach it.
                            await closeTheOthers(in: &group)
                            throw error
                        }
                    }
                }
            }
            throw failures[.relay] ?? failures[.direct] ?? CancellationError()
        }
    }

    /// Cancels the attempts still running and closes any connection one of them made anyway.
    private func closeTheOthers(in group: inout ThrowingTaskGroup<(Route, Result<ConnectionFrameChannel, any Error>), any Error>) async {
        group.cancelAll()
        while let next = try? await group.next() {
            if case .success(let extra) = next.1 { await extra.close() }
        }
    }

    // MARK: Direct (Spec 11.4)

    /// One direct connection, admitted; made again after a short pause when the sender closed
    /// it before its challenge (its listener was full), while the timeouts last.
    func connectDirectly(_ endpoint: TCPRendezvous.Endpoint) async throws -> ConnectionFrameChannel {
        let giveUp = ContinuousClock.now + configuration.connectTimeout + configuration.admissionTimeout
        while true {
            do {
                return try await admitted(ConnectionCore(loop: loop, configuration: configuration, keys: keys), route: .direct(endpoint)) { core, continuation in
                    core.connect(to: endpoint, continuation)
                }
            } catch TransportError.closedByPeer where ContinuousClock.now + ConnectionFrameChannel.retryDelay < giveUp {
                try await Task.sleep(for: ConnectionFrameChannel.retryDelay)
            }
        }
    }

    // MARK: Relay (Spec 11.7)

    /// Connections through the relay until one is admitted or the pairing deadline passes:
    /// each with a fresh side, each made again after the retry delay when the relay closed it,
    /// could not be reached, or paired it with someone who did not challenge as this QR's
    /// sender. The connection returned is made again the same way when the relay garbles it
    /// before the sender's first frame. Each reason is said once (``RelayProgressReport``).
    func connectThroughRelay(_ relay: TCPRendezvous.Relay) async throws -> ConnectionFrameChannel {
        let random = SystemRandomSource()
        let report = RelayProgressReport(relay: relay, progress: progress)
        let retry = ConnectionCore.RelayRetry(relay: relay, pairingDeadline: pairingDeadline, failed: report.failed, reached: report.reached)
        var lastFailure: TransportError?
        while ContinuousClock.now < pairingDeadline {
            try Task.checkCancellation()
            do {
                let address = try await RelayAddressResolver.resolve(relay.host)
                report.connecting(at: address)
                let line = RelayHandshake.line(relayToken: keys.relayToken, side: RelayHandshake.receiverSide(senderSide: keys.senderSide, random: random))
                let core = ConnectionCore(loop: loop, configuration: configuration, keys: keys, relayed: true)
                let deadline = pairingDeadline
                return try await admitted(core, route: .relay(relay, address: address)) { core, continuation in
                    core.connect(throughRelayAt: address, port: relay.port, line: line, pairingDeadline: deadline, retry: retry, continuation)
                }
            } catch let error as TransportError {
                lastFailure = error
                guard error != .relayNotPaired, ContinuousClock.now + configuration.relayRetryDelay < pairingDeadline else { break }
                report.failed(error)
                try await Task.sleep(for: configuration.relayRetryDelay)
            }
        }
        // Only a relay that was never found says so; every other ending is "not paired in time".
        if case .relayHostNotFound? = lastFailure { throw lastFailure! }
        throw TransportError.relayNotPaired
    }

    // MARK: One connection

    /// Runs `start` on the loop and waits until `core` is admitted; a cancelled task stops it.
    private func admitted(_ core: ConnectionCore, route: ConnectionRoute,
                          _ start: @escaping @Sendable (ConnectionCore, CheckedContinuation<Void, any Error>) -> Void) async throws
        -> ConnectionFrameChannel {
        try await ConnectionFrameChannel.opened(core, route: route, loop: loop, start)
    }
}

/// The direct attempt's head start (Spec 11.8): ends when it passes, or at once when the
/// direct attempt failed.
final class HeadStart: @unchecked Sendable {
    // Safety of @unchecked Sendable: every field is only touched under `lock`.
    private let lock = NSLock()
    private var failedEarly = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var timer: Task<Void, Never>?

    /// The direct attempt failed: the relay goes now.
    func release() {
        lock.withLock { () -> CheckedContinuation<Void, Never>? in
            failedEarly = true
            defer { waiter = nil }
            return waiter
        }?.resume()
    }

    private func expire() {
        lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { waiter = nil }
            return waiter
        }?.resume()
    }

    /// Waits until `duration` passed or ``release()``; `true` when released early.
    func wait(for duration: Duration) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = lock.withLock { () -> Bool in
                    guard !failedEarly else { return true }
                    waiter = continuation
                    return false
                }
                if ready {
                    continuation.resume()
                    return
                }
                let timer = Task { [self] in
                    try? await Task.sleep(for: duration)
                    expire()
                }
                lock.withLock { self.timer = timer }
            }
        } onCancel: {
            expire()
        }
        return lock.withLock {
            timer?.cancel()
            return failedEarly
        }
    }
}
