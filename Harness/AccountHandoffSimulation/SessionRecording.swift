import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// The wire frames of one complete, honest transfer, in the order they were sent:
/// hello, reveal, offer, accept, credential, receipt.
///
/// Test support only: the source of fuzz seeds, of the tamper matrix and of frames
/// "replayed from another session".
public struct SessionRecording: Sendable {
    /// One recorded frame.
    public struct RecordedFrame: Sendable {
        /// Which way it went.
        public let direction: Direction
        /// Its type.
        public let type: MessageType
        /// Its bytes.
        public let bytes: [UInt8]
    }

    /// The QR text the sender showed.
    public let qrText: String
    /// The frames in sending order.
    public let frames: [RecordedFrame]
    /// The short code the receiver showed (and the sending person typed).
    public let shortCode: ShortCode

    /// Runs `scenario` from start to an imported receipt, with no clock movement.
    ///
    /// - Throws: ``InvariantViolation`` if the honest run does not complete as the protocol says.
    public static func record(_ scenario: Scenario, receiptStatus: ReceiptStatus = .imported) throws(InvariantViolation) -> SessionRecording {
        do {
            return try recordThrowing(scenario, receiptStatus: receiptStatus)
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("honest recording failed: \(error)")
        }
    }

    private static func recordThrowing(_ scenario: Scenario, receiptStatus: ReceiptStatus) throws -> SessionRecording {
        let now = scenario.start
        let sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                             random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: now)
        let (receiver, scanned) = try HandoffReceiver.scan(payload: try SessionPayload(text: sender.payload.text),
                                                           random: InsecureDeterministicRandom(seed: scenario.receiverSeed), now: now)
        var frames: [RecordedFrame] = []
        func sent(_ first: [UInt8]?, _ direction: Direction, _ type: MessageType) throws -> [UInt8] {
            guard let bytes = first, FrameBytes.type(of: bytes) == type else { throw InvariantViolation("expected a \(type) frame") }
            frames.append(RecordedFrame(direction: direction, type: type, bytes: bytes))
            return bytes
        }
        func first(_ actions: [SenderAction]) -> [UInt8]? { if case .send(let bytes)? = actions.first { bytes } else { nil } }
        func first(_ actions: [ReceiverAction]) -> [UInt8]? { if case .send(let bytes)? = actions.first { bytes } else { nil } }
        let hello = try sent(first(scanned.actions), .toSender, .hello)
        let reveal = try sent(first(try sender.handle(.frameReceived(hello), now: now).actions), .toReceiver, .reveal)
        _ = try receiver.handle(.frameReceived(reveal), now: now)
        let typed = receiver.shortCode?.digits ?? ""
        let offer = try sent(first(try sender.handle(.codeEntered(typed), now: now).actions), .toReceiver, .offer)
        _ = try receiver.handle(.frameReceived(offer), now: now)
        let accept = try sent(first(try receiver.handle(.accept, now: now).actions), .toSender, .accept)
        _ = try sender.handle(.frameReceived(accept), now: now)
        let password = try SecretBytes(copying: scenario.passwordBytes)
        let credential = try sent(first(try sender.handle(.credentialProvided(password), now: now).actions), .toReceiver, .credential)
        let delivered = try receiver.handle(.frameReceived(credential), now: now).actions
        if case .deliverAccount(let imported)? = delivered.first { imported.credential.wipe() }
        let receipt = try sent(first(try receiver.handle(.importFinished(receiptStatus), now: now).actions), .toSender, .receipt)
        let last = try sender.handle(.frameReceived(receipt), now: now).actions
        guard case .finished(.completed(receiptStatus))? = last.first, let code = receiver.shortCode, code == sender.shortCode else {
            throw InvariantViolation("honest run did not complete: \(last.map { ActionName.of($0) })")
        }
        return SessionRecording(qrText: sender.payload.text, frames: frames, shortCode: code)
    }

    /// A recording of the standard scenario.
    public static let standard: SessionRecording = try! record(.standard)

    /// A recording with other seeds (so another transfer ID and other keys), for cross-session replays.
    public static let foreign: SessionRecording = try! record(Scenario(senderSeed: 0xf0e1, receiverSeed: 0xf0e2))
}
