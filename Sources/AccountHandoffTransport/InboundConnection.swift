/// One accepted connection inside ``FrameListener``, from its first byte to its close.
///
/// It moves through four stages: it must present the rendezvous tag by its tag deadline,
/// then be bound by the session (its hello authenticated) by its hello deadline; once bound
/// it has no admission deadline. A connection the driver closes after sending to it lingers
/// in `closing` to let those bytes reach the peer. Reads never take more than the current
/// stage still needs, so a connection buffers at most the 10-byte preamble or one frame plus
/// its 2-byte length prefix.
final class InboundConnection {
    enum Stage {
        /// Presenting the preamble: `received` holds the correct bytes so far.
        case awaitingTag(received: [UInt8], deadline: ContinuousClock.Instant)
        /// Tag presented; frames flow to the session, which has until `deadline` to bind it.
        case admitted(deadline: ContinuousClock.Instant)
        /// Bound to the session: no admission deadline.
        case bound
        /// Stopped sending; discarding input until the peer closes or `deadline` passes.
        case closing(deadline: ContinuousClock.Instant)
    }

    /// What reading gave.
    struct ReadResult {
        /// The connection completed the tag during this read.
        var presentedTag = false
        /// A whole frame, at most one per read.
        var frame: [UInt8]?
        /// Why the connection must end now, if it must.
        var failure: Failure?
    }

    /// Why a connection ended while reading.
    enum Failure: Equatable {
        /// It sent something other than the preamble, or closed before finishing it.
        case refusedBeforeTag
        /// A framing, end-of-stream or socket error after the tag.
        case transport(TransportError)
        /// A closing connection reached its end.
        case closed
    }

    let identifier: Int
    private let socket: POSIXSocket
    private(set) var stage: Stage
    private var decoder = FrameStreamDecoder()
    /// When the first byte of the frame now arriving came, for the stall timeout.
    private var frameStart: ContinuousClock.Instant?
    /// Frames the session reported as ignored.
    var ignoredFrameCount = 0
    /// Whether the driver sent anything on it, so closing it cleanly matters.
    private(set) var hasSent = false
    /// The most bytes it buffered at once.
    private(set) var peakBufferedByteCount = 0

    init(identifier: Int, socket: POSIXSocket, tagDeadline: ContinuousClock.Instant) {
        self.identifier = identifier
        self.socket = socket
        stage = .awaitingTag(received: [], deadline: tagDeadline)
    }

    var descriptor: Int32 { socket.descriptor }

    /// Bytes held for this connection: preamble bytes so far, or the partial frame.
    var bufferedByteCount: Int {
        if case .awaitingTag(let received, _) = stage { return received.count }
        return decoder.bufferedByteCount
    }

    var isAdmitted: Bool {
        if case .admitted = stage { return true }
        return false
    }

    var isServing: Bool {
        switch stage {
        case .awaitingTag, .admitted, .bound: true
        case .closing: false
        }
    }

    // MARK: Reading

    /// Reads until one frame completed, the socket has nothing more, or the connection failed.
    func read(preamble: [UInt8], helloTimeout: Duration) -> ReadResult {
        var result = ReadResult()
        while true {
            switch stage {
            case .awaitingTag(var received, let deadline):
                let chunk: [UInt8]?
                do { chunk = try socket.readAvailable(maximum: preamble.count - received.count) } catch {
                    result.failure = .refusedBeforeTag
                    return result
                }
                guard let chunk else { return result }
                // A stray connection is dropped at its first wrong byte.
                guard !chunk.isEmpty, chunk.elementsEqual(preamble[received.count..<received.count + chunk.count]) else {
                    result.failure = .refusedBeforeTag
                    return result
                }
                received += chunk
                peakBufferedByteCount = max(peakBufferedByteCount, received.count)
                guard received.count == preamble.count else {
                    stage = .awaitingTag(received: received, deadline: deadline)
                    return result
                }
                stage = .admitted(deadline: .now + helloTimeout)
                result.presentedTag = true
            case .admitted, .bound:
                do throws(TransportError) {
                    guard let chunk = try socket.readAvailable(maximum: decoder.bytesToCompleteFrame) else { return result }
                    guard !chunk.isEmpty else { throw .closedByPeer }
                    decoder.append(chunk)
                    peakBufferedByteCount = max(peakBufferedByteCount, decoder.bufferedByteCount)
                    if frameStart == nil { frameStart = .now }
                    if let frame = try decoder.nextFrame() {
                        frameStart = nil
                        result.frame = frame
                        return result
                    }
                } catch {
                    result.failure = .transport(error)
                    return result
                }
            case .closing:
                do {
                    if try socket.readAvailable(maximum: 4096)?.isEmpty == true { result.failure = .closed }
                } catch {
                    result.failure = .closed
                }
                return result
            }
        }
    }

    // MARK: Deadlines

    /// Why the connection is past a deadline at `now`, if it is.
    func expiry(at now: ContinuousClock.Instant, readTimeout: Duration) -> Expiry? {
        switch stage {
        case .awaitingTag(_, let deadline):
            return deadline <= now ? .tag : nil
        case .admitted(let deadline):
            if deadline <= now { return .hello }
            return isStalled(at: now, readTimeout: readTimeout) ? .stalledFrame : nil
        case .bound:
            return isStalled(at: now, readTimeout: readTimeout) ? .stalledFrame : nil
        case .closing(let deadline):
            return deadline <= now ? .linger : nil
        }
    }

    /// Which deadline passed.
    enum Expiry {
        case tag, hello, stalledFrame, linger
    }

    /// The earliest instant at which ``expiry(at:readTimeout:)`` may change.
    func nextDeadline(readTimeout: Duration) -> ContinuousClock.Instant? {
        let stall = frameStart.map { $0 + readTimeout }
        switch stage {
        case .awaitingTag(_, let deadline): return deadline
        case .admitted(let deadline): return min(deadline, stall ?? deadline)
        case .bound: return stall
        case .closing(let deadline): return deadline
        }
    }

    private func isStalled(at now: ContinuousClock.Instant, readTimeout: Duration) -> Bool {
        guard let frameStart else { return false }
        return frameStart + readTimeout <= now
    }

    // MARK: Session

    /// Lifts the hello deadline; only an admitted connection can be bound.
    func bind() -> Bool {
        guard isAdmitted else { return false }
        stage = .bound
        return true
    }

    /// Sends one frame within `timeout`.
    func send(_ frame: [UInt8], timeout: Duration) throws(TransportError) {
        switch stage {
        case .admitted, .bound:
            hasSent = true
            try socket.writeAll(FrameStream.encode(frame), until: .now + timeout)
        case .awaitingTag, .closing:
            throw .closedLocally
        }
    }

    // MARK: Closing

    /// Stops sending and keeps the descriptor until the peer closes or `linger` passes, so the
    /// frames already sent are not lost to a reset.
    func startClosing(linger: Duration) {
        socket.shutdownWrite()
        stage = .closing(deadline: .now + linger)
    }

    /// Closes at once after discarding what is already readable (unread input would make
    /// the close a reset).
    func close() {
        for _ in 0..<4 {
            guard let chunk = try? socket.readAvailable(maximum: 4096), !chunk.isEmpty else { break }
        }
        socket.close()
    }
}
