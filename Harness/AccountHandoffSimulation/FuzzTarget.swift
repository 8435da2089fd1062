import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// The five libFuzzer targets. Their bodies live here, in the root package, so that the
/// normal test suite can replay seeds and crashers through exactly the code the fuzzers run;
/// the `Fuzz/` package only wraps each one in an `LLVMFuzzerTestOneInput` entry.
///
/// Test support only.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// 1. QR payload text (and binary) decoder; whatever decodes must re-encode to the same input.
    case qrPayload = "FuzzQRPayload"
    /// 2. Frame decoder (and the offer and credential plaintext decoders); whatever decodes must
    /// re-encode to the same input.
    case frame = "FuzzFrame"
    /// 3. The sender state machine after a valid start, fed arbitrary, genuine, damaged and
    /// forged frames, a second device's hello, and local events.
    case sender = "FuzzSender"
    /// 4. The receiver state machine after a valid scan, likewise, with forged reveals (the real
    /// nonce, a damaged one, arbitrary bytes) besides forged offers, credentials and aborts.
    case receiver = "FuzzReceiver"
    /// 5. A whole two-device session in an adversarial world, checking every invariant.
    case session = "FuzzSession"

    /// Runs one input.
    ///
    /// - Throws: ``InvariantViolation`` when the input breaks a property (the fuzz entry crashes on it).
    public func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        do {
            try run(bytes, tracing: false)
        } catch {
            // Run the failing input again with every step recorded, for the report.
            try run(bytes, tracing: true)
            throw error
        }
    }

    private func run(_ bytes: [UInt8], tracing: Bool) throws(InvariantViolation) {
        switch self {
        case .qrPayload: try Self.qrPayload(bytes)
        case .frame: try Self.frame(bytes)
        case .sender:
            var input = FuzzInput(bytes)
            try VictimHarness(victim: .sender, tracing: tracing).run(&input)
        case .receiver:
            var input = FuzzInput(bytes)
            try VictimHarness(victim: .receiver, tracing: tracing).run(&input)
        case .session:
            var input = FuzzInput(bytes)
            try SessionScript.run(&input, dumpSessions: false, tracing: tracing)
        }
    }

    /// Runs one input and tells whether it reached deep into its target: a QR or frame that
    /// decodes (a frame of an encrypted type), a victim that got past the credential (sent it,
    /// or handed it to its app), a world in which the honest receiver's app got the account.
    ///
    /// - Throws: ``InvariantViolation`` when the input breaks a property.
    public func reachesDeepState(_ bytes: [UInt8]) throws(InvariantViolation) -> Bool {
        switch self {
        case .qrPayload:
            try run(bytes)
            return (try? SessionPayload(text: String(decoding: bytes, as: UTF8.self))) != nil
                || (try? SessionPayload(binary: bytes)) != nil
        case .frame:
            try run(bytes)
            guard let frame = try? Frame(bytes: bytes) else { return false }
            return frame.type != .hello
        case .sender, .receiver:
            var input = FuzzInput(bytes)
            let harness = try VictimHarness(victim: self == .sender ? .sender : .receiver)
            try harness.run(&input)
            return harness.deepestPhase >= 4
        case .session:
            var input = FuzzInput(bytes)
            return try SessionScript.run(&input, dumpSessions: false).receiverDelivered
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
            _ = String(describing: error) + error.identifier
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("untyped error \(error)")
        }
        if let payload = try? SessionPayload(binary: bytes) {
            guard payload.binary == bytes else { throw InvariantViolation("QR binary decoded but re-encodes differently") }
            guard (try? SessionPayload(text: payload.text)) == payload else { throw InvariantViolation("QR text of a binary does not round-trip") }
        }
        // The decimal groups alone (Spec 2.3): whatever decodes re-encodes to the same digits.
        let digits = text.hasPrefix("AH:") ? text.dropFirst(3) : Substring(text)
        if let decoded = try? VectorPrimitives.decimalGroupBytes(digits), VectorPrimitives.decimalGroups(decoded) != digits {
            throw InvariantViolation("decimal groups decoded but re-encode differently")
        }
    }

    static func frame(_ bytes: [UInt8]) throws(InvariantViolation) {
        if let frame = try? Frame(bytes: bytes) {
            guard frame.bytes == bytes, frame.header == Array(bytes.prefix(Frame.headerByteCount)) else {
                throw InvariantViolation("a frame decoded but re-encodes differently")
            }
            guard (try? Frame(bytes: frame.bytes)) == frame else { throw InvariantViolation("a frame does not round-trip") }
        }
        // The offer padding alone (Spec 3.4): whatever unpads pads back to the same bytes.
        if let record = try? VectorPrimitives.unpaddedOfferRecord(bytes), VectorPrimitives.paddedOfferRecord(record) != bytes {
            throw InvariantViolation("an offer padding unpadded but pads back differently")
        }
        if let offered = try? VectorPrimitives.decodeOffer(bytes) {
            guard VectorPrimitives.offerPlaintext(offered.account, senderGate: offered.senderGate) == bytes else {
                throw InvariantViolation("an offer plaintext decoded but re-encodes differently")
            }
        }
        if bytes.count == 1024, let password = try? VectorPrimitives.decodeCredentialPlaintext(bytes) {
            guard (try? VectorPrimitives.credentialPlaintext(password)) == bytes else {
                throw InvariantViolation("a credential plaintext decoded but re-encodes differently")
            }
        }
    }
}
