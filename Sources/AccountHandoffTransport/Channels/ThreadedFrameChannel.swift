import AccountHandoff
import Foundation

/// Runs a ``BlockingFrameEndpoint`` on a thread of its own and offers it as a ``FrameChannel``:
/// the thread alternates between carrying out queued commands (sends, binds, closes), in the
/// order they were made, and polling the endpoint for a short while.
final class ThreadedFrameChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: `commands`, `closing` and `started` are only touched under
    // `lock`; the endpoint is only touched by the channel's thread after `start`.
    private enum Command {
        case send([UInt8], FramePeer, CheckedContinuation<Void, any Error>)
        case bind(FramePeer)
        case noteIgnored(FramePeer)
        case disconnect(FramePeer)
    }

    /// How long one poll waits before the thread looks at its commands again.
    static let pollInterval: Duration = .milliseconds(10)

    private let lock = NSLock()
    private let endpoint: BlockingFrameEndpoint
    private let stream: AsyncThrowingStream<FrameChannelEvent, any Error>
    private let sink: AsyncThrowingStream<FrameChannelEvent, any Error>.Continuation
    private var commands: [Command] = []
    private var closing = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var finished = false

    init(endpoint: BlockingFrameEndpoint, name: String) {
        self.endpoint = endpoint
        (stream, sink) = AsyncThrowingStream.makeStream(of: FrameChannelEvent.self)
        let thread = Thread { [self] in serve() }
        thread.name = name
        thread.start()
    }

    func receive() async throws -> FrameChannelEvent? {
        // One reader at a time (FrameChannel's contract); each call continues the one stream.
        var iterator = stream.makeAsyncIterator()
        return try await iterator.next()
    }

    func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let accepted = lock.withLock {
                guard !closing else { return false }
                commands.append(.send(frame, peer, continuation))
                return true
            }
            if !accepted { continuation.resume(throwing: TransportError.closedLocally) }
        }
    }

    func bind(_ peer: FramePeer) async { enqueue(.bind(peer)) }
    func noteIgnoredFrame(from peer: FramePeer) async { enqueue(.noteIgnored(peer)) }
    func disconnect(_ peer: FramePeer) async { enqueue(.disconnect(peer)) }

    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyDone = lock.withLock {
                closing = true
                if finished { return true }
                closeWaiters.append(continuation)
                return false
            }
            if alreadyDone { continuation.resume() }
        }
    }

    private func enqueue(_ command: Command) {
        lock.withLock {
            if !closing { commands.append(command) }
        }
    }

    private func serve() {
        var failure: (any Error)?
        while true {
            let (pending, shouldClose) = lock.withLock { () -> ([Command], Bool) in
                defer { commands.removeAll() }
                return (commands, closing)
            }
            for command in pending { execute(command) }
            if shouldClose { break }
            do {
                if let event = try endpoint.poll(timeout: Self.pollInterval) { sink.yield(event) }
            } catch {
                failure = error
                break
            }
        }
        let leftover = lock.withLock { () -> [Command] in
            closing = true
            defer { commands.removeAll() }
            return commands
        }
        for command in leftover {
            if case .send(_, _, let continuation) = command { continuation.resume(throwing: TransportError.closedLocally) }
        }
        endpoint.close()
        failure.map { sink.finish(throwing: $0) } ?? sink.finish()
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            finished = true
            defer { closeWaiters.removeAll() }
            return closeWaiters
        }
        waiters.forEach { $0.resume() }
    }

    private func execute(_ command: Command) {
        switch command {
        case .send(let frame, let peer, let continuation):
            do {
                try endpoint.send(frame, to: peer)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case .bind(let peer): endpoint.bind(peer)
        case .noteIgnored(let peer): endpoint.noteIgnoredFrame(from: peer)
        case .disconnect(let peer): endpoint.disconnect(peer)
        }
    }
}
