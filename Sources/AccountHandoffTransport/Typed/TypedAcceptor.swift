import AccountHandoff

/// The typed way's listening socket of a ``FrameListener`` (Spec 11.10): a TCP port of its
/// own, whose connections skip the QR's admission and wait for a typed run. Loop thread only;
/// ``ListenerCore`` serves what it accepts.
final class TypedAcceptor: PollHandler, DeadlineTarget, @unchecked Sendable {
    // Safety of @unchecked Sendable: made on the listener's thread, then handed to the event
    // loop's thread, which is the only one that touches it.
    let socket: POSIXSocket
    private let loop: EventLoop
    private weak var core: ListenerCore?
    private var token: UInt64?
    private let batch: Int

    init(socket: POSIXSocket, loop: EventLoop, core: ListenerCore) {
        self.socket = socket
        self.loop = loop
        self.core = core
        batch = max(1, core.capacity / 8)
    }

    /// Starts accepting.
    func start() {
        guard token == nil, socket.isOpen else { return }
        token = try? loop.register(socket.descriptor, interest: .readable, handler: self)
    }

    /// Stops accepting and closes the socket. Idempotent.
    func stop() {
        if let token { loop.unregister(socket.descriptor, token: token) }
        token = nil
        socket.closeListening()
    }

    func handle(_ event: PollEvent) {
        for _ in 0..<batch {
            guard let outcome = try? socket.accept() else { return stop() }
            switch outcome {
            case .accepted(let accepted): core?.takeTyped(accepted)
            case .noneWaiting: return
            case .outOfResources:
                // Out of descriptors: rest a moment rather than spin on a socket that stays readable.
                if let token { try? loop.setInterest(socket.descriptor, token: token, interest: []) }
                loop.wake(self, at: .now + .milliseconds(100))
                return
            }
        }
    }

    func deadlineReached(now: ContinuousClock.Instant) {
        guard let token, socket.isOpen else { return }
        try? loop.setInterest(socket.descriptor, token: token, interest: .readable)
    }
}
