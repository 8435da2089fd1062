#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection carrying length-framed handoff frames: the receiver's side, made by
/// ``connect(to:configuration:)``. (The sender's side lives inside ``FrameListener``.)
///
/// It is not thread-safe: use it from one thread (the app's session loop).
public final class FrameConnection {
    /// The timeouts in force.
    public let configuration: TransportConfiguration
    private let socket: POSIXSocket
    private var decoder = FrameStreamDecoder()
    private var partialFrameStart: ContinuousClock.Instant?

    private init(socket: POSIXSocket, configuration: TransportConfiguration) {
        self.socket = socket
        self.configuration = configuration
    }

    /// Connects to a sender and presents the rendezvous tag; the connection is then ready for
    /// the hello frame.
    ///
    /// - Throws: ``TransportError/connectionRefused``, ``TransportError/timedOut`` and other
    ///   ``TransportError``s.
    public static func connect(to rendezvous: TCPRendezvous,
                               configuration: TransportConfiguration = .standard) throws(TransportError) -> FrameConnection {
        let socket = try POSIXSocket.makeTCP()
        try socket.connect(address: rendezvous.address, port: rendezvous.port, timeout: configuration.connectTimeout)
        try socket.writeAll(rendezvous.preamble, until: .now + configuration.writeTimeout)
        return FrameConnection(socket: socket, configuration: configuration)
    }

    /// Whether the connection is still open on this side.
    public var isOpen: Bool { socket.isOpen }

    /// Sends one frame within the write timeout.
    ///
    /// - Throws: ``TransportError/closedByPeer``, ``TransportError/timedOut``,
    ///   ``TransportError/closedLocally``, or a framing error for a frame outside the cap.
    public func send(_ frame: [UInt8]) throws(TransportError) {
        try socket.writeAll(FrameStream.encode(frame), until: .now + configuration.writeTimeout)
    }

    /// Waits up to `timeout` for the next whole frame. Bytes of a frame still arriving are kept
    /// for the next call.
    ///
    /// - Throws: ``TransportError/timedOut`` when no whole frame arrived within `timeout`, or a
    ///   started frame did not complete within the read timeout;
    ///   ``TransportError/closedByPeer`` at end of stream; a framing error for a bad length.
    public func receive(timeout: Duration) throws(TransportError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let frame = try nextBufferedFrame() { return frame }
            if let start = partialFrameStart, start + configuration.readTimeout <= .now { throw .timedOut }
            var wakeUp = deadline
            if let start = partialFrameStart { wakeUp = min(wakeUp, start + configuration.readTimeout) }
            guard try socket.wait(for: Int16(POLLIN), until: wakeUp) else {
                if wakeUp == deadline { throw .timedOut }
                continue
            }
            try readOnce()
        }
    }

    /// Reads what the socket has into the decoder.
    ///
    /// - Throws: ``TransportError/closedByPeer`` at end of stream.
    private func readOnce() throws(TransportError) {
        guard let chunk = try socket.readAvailable() else { return }
        guard !chunk.isEmpty else { throw .closedByPeer }
        decoder.append(chunk)
        if partialFrameStart == nil { partialFrameStart = .now }
    }

    /// A frame already buffered, if any.
    private func nextBufferedFrame() throws(TransportError) -> [UInt8]? {
        let frame = try decoder.nextFrame()
        if frame != nil || !decoder.hasPartialFrame { partialFrameStart = decoder.hasPartialFrame ? .now : nil }
        return frame
    }

    /// Whether a started frame has been incomplete for longer than the read timeout. When it
    /// is, a ``TransportError/timedOut`` from ``receive(timeout:)`` means the peer stalled,
    /// not merely that nothing arrived yet.
    public var isStalled: Bool {
        guard let start = partialFrameStart else { return false }
        return start + configuration.readTimeout <= .now
    }

    /// Closes cleanly: the peer still receives every frame already sent. Idempotent.
    public func close() {
        socket.closeGracefully(linger: configuration.closeLinger)
    }
}

