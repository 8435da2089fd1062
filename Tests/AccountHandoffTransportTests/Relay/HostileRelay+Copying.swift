import AccountHandoff
@testable import AccountHandoffTransport
import Foundation

/// How a ``HostileRelay`` copies an honestly paired stream: unit by unit, through its tamper.
extension HostileRelay {
    /// Copies both directions on threads of their own until either side closes.
    func pump(_ sender: POSIXSocket, _ receiver: POSIXSocket, tamper: Tamper?, closeAfter: Int?, recording: Bool) {
        let pair = PairState(sender, receiver, closeAfter: closeAfter)
        for direction in [Direction.senderToReceiver, .receiverToSender] {
            let (from, to) = direction == .senderToReceiver ? (sender, receiver) : (receiver, sender)
            Thread { [self] in copy(direction, from: from, to: to, pair: pair, tamper: tamper, recording: recording) }.start()
        }
    }

    private func copy(_ direction: Direction, from: POSIXSocket, to: POSIXSocket, pair: PairState, tamper: Tamper?, recording: Bool) {
        var buffer: [UInt8] = []
        var index = 0
        while !pair.isClosed {
            guard let chunk = try? Blocking.read(from, maximum: 4096, timeout: .seconds(300)), !chunk.isEmpty else { break }
            record(chunk)
            if recording { lock.withLock { streams[direction, default: []] += chunk } }
            buffer += chunk
            while let length = Self.unitLength(buffer, direction: direction, index: index), buffer.count >= length {
                let unit = Unit(direction: direction, index: index, bytes: Array(buffer.prefix(length)))
                buffer.removeFirst(length)
                index += 1
                lock.withLock { units.append(unit) }
                for output in tamper?(unit) ?? [.forward(unit.bytes)] {
                    switch output {
                    case .forward(let bytes):
                        let allowed = direction == .senderToReceiver ? pair.take(bytes.count) : bytes.count
                        if allowed > 0 { _ = try? Blocking.write(to, Array(bytes.prefix(allowed))) }
                        if direction == .senderToReceiver, pair.isExhausted {
                            note("closed both after \(closeAfterText(pair)) sender-to-receiver bytes")
                            pair.close()
                        }
                    case .note(let line):
                        note(line)
                    case .pause(let duration):
                        Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
                    case .closeBoth:
                        note("closed both")
                        pair.close()
                    }
                }
            }
        }
        pair.close()
    }

    private func closeAfterText(_ pair: PairState) -> String { pair.limit.map(String.init) ?? "all" }

    /// The length of the next unit once its length is known.
    private static func unitLength(_ buffer: [UInt8], direction: Direction, index: Int) -> Int? {
        if index == 0 { return direction.admissionByteCount }
        guard buffer.count >= 2 else { return nil }
        return 2 + (Int(buffer[0]) << 8 | Int(buffer[1]))
    }
}

/// The two connections of one pair: closed together, with a byte budget for one direction.
final class PairState: @unchecked Sendable {
    // Safety of @unchecked Sendable: `closed` and `sent` are only touched under `lock`.
    private let lock = NSLock()
    private let sockets: [POSIXSocket]
    let limit: Int?
    private var sent = 0
    private var closed = false

    init(_ sender: POSIXSocket, _ receiver: POSIXSocket, closeAfter: Int?) {
        sockets = [sender, receiver]
        limit = closeAfter
    }

    var isClosed: Bool { lock.withLock { closed } }

    /// Whether the byte budget is spent.
    var isExhausted: Bool { lock.withLock { limit.map { sent >= $0 } ?? false } }

    /// How many of `count` bytes may go before the budget runs out.
    func take(_ count: Int) -> Int {
        lock.withLock {
            guard let limit else { return count }
            let allowed = max(0, min(count, limit - sent))
            sent += allowed
            return allowed
        }
    }

    func close() {
        let wasOpen = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        if wasOpen { sockets.forEach { $0.shutdownBoth() } }
    }
}

