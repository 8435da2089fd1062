import AccountHandoff
@testable import AccountHandoffTransport
import Foundation

/// What a hostile relay does to the stream it copies, unit by unit (see ``HostileRelay``).
enum Tampers {
    typealias Unit = HostileRelay.Unit

    /// Drops every frame of `type`.
    static func dropping(type: MessageType) -> HostileRelay.Tamper {
        { unit in unit.type == type.rawValue ? [.note("dropped the \(type)")] : [.forward(unit.bytes)] }
    }

    /// Waits `duration` before each unit.
    static func delaying(_ duration: Duration) -> HostileRelay.Tamper {
        { unit in [.pause(duration), .forward(unit.bytes), .note("delayed unit \(unit.index)")] }
    }

    /// Sends every frame twice (the admission messages once: a second one would be a frame).
    static let duplicating: HostileRelay.Tamper = { unit in
        unit.index == 0 ? [.forward(unit.bytes)] : [.forward(unit.bytes), .forward(unit.bytes), .note("duplicated a \(name(unit))")]
    }

    /// Sends the first half of the first frame of `type`, then closes both connections.
    static func truncating(type: MessageType) -> HostileRelay.Tamper {
        { unit in
            guard unit.type == type.rawValue else { return [.forward(unit.bytes)] }
            return [.forward(Array(unit.bytes.prefix(unit.bytes.count / 2))), .note("truncated the \(type)"), .closeBoth]
        }
    }

    /// Flips one bit of the ciphertext of every frame of `type`.
    static func flipping(type: MessageType) -> HostileRelay.Tamper {
        { unit in
            guard unit.type == type.rawValue else { return [.forward(unit.bytes)] }
            var bytes = unit.bytes
            bytes[2 + 24 + 5] ^= 0x10
            return [.note("flipped a bit of the \(type)"), .forward(bytes)]
        }
    }

    /// Flips one bit of the admission tag in the receiver's response.
    static let flippingTheResponse: HostileRelay.Tamper = { unit in
        guard unit.direction == .receiverToSender, unit.index == 0 else { return [.forward(unit.bytes)] }
        var bytes = unit.bytes
        bytes[10] ^= 0x01
        return [.note("flipped a bit of the admission response"), .forward(bytes)]
    }

    /// Before each frame after the hello, a forged frame with the same header (type, transfer
    /// ID, sequence, length) and random ciphertext.
    static let injecting: HostileRelay.Tamper = { unit in
        guard unit.index > 0, unit.type != MessageType.hello.rawValue else { return [.forward(unit.bytes)] }
        return [.forward(forgery(of: unit)), .note("injected a forged \(name(unit))"), .forward(unit.bytes)]
    }

    /// A forged hello (random key and tag) right before the receiver's.
    static let injectingAHello: HostileRelay.Tamper = { unit in
        guard unit.type == MessageType.hello.rawValue else { return [.forward(unit.bytes)] }
        return [.forward(forgery(of: unit)), .note("injected a forged hello"), .forward(unit.bytes)]
    }

    /// Holds the offer until the sender's next frame (its abort once its person cancels),
    /// then delivers that frame first and the offer after it.
    final class ReorderedOffer: @unchecked Sendable {
        // Safety of @unchecked Sendable: `held` is only touched under `lock`.
        private let lock = NSLock()
        private var held: [UInt8]?

        var tamper: HostileRelay.Tamper {
            { [self] unit in
                guard unit.direction == .senderToReceiver, unit.index > 0 else { return [.forward(unit.bytes)] }
                return lock.withLock {
                    if unit.type == MessageType.offer.rawValue, held == nil {
                        held = unit.bytes
                        return [.note("holding the offer")]
                    }
                    guard let offer = held else { return [.forward(unit.bytes)] }
                    held = nil
                    return [.forward(unit.bytes), .forward(offer), .note("delivered the \(name(unit)) before the offer")]
                }
            }
        }
    }

    /// The unit's frame with its 24-byte header kept and every later byte random.
    private static func forgery(of unit: Unit) -> [UInt8] {
        var bytes = unit.bytes
        var random = [UInt8](repeating: 0, count: bytes.count - 26)
        random.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
        bytes.replaceSubrange(26..., with: random)
        return bytes
    }

    private static func name(_ unit: Unit) -> String {
        unit.type.flatMap(MessageType.init(rawValue:)).map(\.description) ?? "frame"
    }
}
