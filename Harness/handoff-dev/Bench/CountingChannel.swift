import HandoffCLI
import AccountHandoff
import AccountHandoffTransport
import Foundation

/// What a receiver's connection carried, in order: each event is one message in or out with
/// its bytes on the wire (the admission messages, then each frame with its 2-byte length
/// prefix, Spec 11.4-11.5).
final class TrafficLog: @unchecked Sendable {
    // Safety of @unchecked Sendable: `events` is only touched under `lock`.
    struct Event: Equatable {
        let incoming: Bool
        let bytes: Int
    }

    struct Snapshot {
        let events: [Event]
        var bytesIn: Int { events.filter(\.incoming).map(\.bytes).reduce(0, +) }
        var bytesOut: Int { events.filter { !$0.incoming }.map(\.bytes).reduce(0, +) }
        /// Frames only (the admission messages are not frames).
        var framesIn: Int { max(0, events.filter(\.incoming).count - 1) }
        var framesOut: Int { max(0, events.filter { !$0.incoming }.count - 1) }

        /// Runs of messages in one direction among the first `count` events (all by default).
        func flights(before count: Int? = nil) -> Int {
            let considered = events.prefix(count ?? events.count)
            guard let first = considered.first else { return 0 }
            var runs = 1, direction = first.incoming
            for event in considered.dropFirst() where event.incoming != direction {
                runs += 1
                direction = event.incoming
            }
            return runs
        }
    }

    private let lock = NSLock()
    private var events: [Event] = []

    /// The connection was admitted: the challenge came in, the response went out.
    func admitted() {
        lock.withLock {
            events.append(Event(incoming: true, bytes: Admission.challengeByteCount))
            events.append(Event(incoming: false, bytes: Admission.responseByteCount))
        }
    }

    func note(incoming: Bool, frameBytes: Int) {
        lock.withLock { events.append(Event(incoming: incoming, bytes: frameBytes + FrameStream.lengthPrefixByteCount)) }
    }

    var snapshot: Snapshot { lock.withLock { Snapshot(events: events) } }
}

/// A receiver's channel that logs every frame through it in a ``TrafficLog``.
struct CountingChannel: FrameChannel {
    let inner: any FrameChannel
    let log: TrafficLog

    init(_ inner: any FrameChannel, log: TrafficLog) {
        self.inner = inner
        self.log = log
    }

    func receive() async throws -> FrameChannelEvent? {
        let event = try await inner.receive()
        if case .frame(let bytes, _)? = event { log.note(incoming: true, frameBytes: bytes.count) }
        return event
    }

    func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        // Logged before it leaves: a fast reply must not be logged ahead of the frame it answers.
        log.note(incoming: false, frameBytes: frame.count)
        try await inner.send(frame, to: peer)
    }

    func close() async { await inner.close() }
}
