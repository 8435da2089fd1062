@_spi(Testing) import AccountHandoff
import Foundation

/// The five libFuzzer targets. Their bodies live here, in the root package, so that the
/// normal test suite can replay seeds and crashers through exactly the code the fuzzers run;
/// the `Fuzz/` package only wraps each one in an `LLVMFuzzerTestOneInput` entry.
///
/// Test support only.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// 1. QR payload text (and binary) decoder; whatever decodes must re-encode to the same input.
    case qrPayload = "FuzzQRPayload"
    /// 2. Frame decoder (and the offer plaintext decoder); whatever decodes must re-encode to the same input.
    case frame = "FuzzFrame"
    /// 3. The sender state machine after a valid start, fed arbitrary, genuine, damaged and forged frames and events.
    case sender = "FuzzSender"
    /// 4. The receiver state machine after a valid scan, likewise.
    case receiver = "FuzzReceiver"
    /// 5. A whole two-device session in an adversarial world, checking every invariant.
    case session = "FuzzSession"

    /// Runs one input.
    ///
    /// - Throws: ``InvariantViolation`` when the input breaks a property (the fuzz entry crashes on it).
    public func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        switch self {
        case .qrPayload: try Self.qrPayload(bytes)
        case .frame: try Self.frame(bytes)
        case .sender:
            var input = FuzzInput(bytes)
            try VictimHarness(victim: .sender).run(&input)
        case .receiver:
            var input = FuzzInput(bytes)
            try VictimHarness(victim: .receiver).run(&input)
        case .session:
            var input = FuzzInput(bytes)
            try SessionScript.run(&input, dumpSessions: false)
        }
    }

    /// The largest input worth trying.
    public var maximumInputLength: Int {
        switch self {
        case .qrPayload: 512
        case .frame: Frame.maximumByteCount + 64
        case .sender, .receiver, .session: 8192
        }
    }

    static func qrPayload(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let payload = try SessionPayload(text: text)
            guard payload.text == text else { throw InvariantViolation("QR text decoded but re-encodes differently") }
            guard (try? SessionPayload(binary: payload.binary)) == payload else { throw InvariantViolation("QR binary does not round-trip") }
        } catch let error as HandoffError {
            _ = error.description + error.identifier
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("untyped error \(error)")
        }
        if let payload = try? SessionPayload(binary: bytes) {
            guard payload.binary == bytes else { throw InvariantViolation("QR binary decoded but re-encodes differently") }
            guard (try? SessionPayload(text: payload.text)) == payload else { throw InvariantViolation("QR text of a binary does not round-trip") }
        }
    }

    static func frame(_ bytes: [UInt8]) throws(InvariantViolation) {
        if let frame = try? Frame(bytes: bytes) {
            guard frame.bytes == bytes, frame.header == Array(bytes.prefix(Frame.headerByteCount)) else {
                throw InvariantViolation("a frame decoded but re-encodes differently")
            }
            guard (try? Frame(bytes: frame.bytes)) == frame else { throw InvariantViolation("a frame does not round-trip") }
        }
        if let account = try? OfferPlaintextCodec.decode(bytes) {
            guard OfferPlaintextCodec.encode(account) == bytes else { throw InvariantViolation("an offer plaintext decoded but re-encodes differently") }
        }
    }
}
