import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Nothing a session prints, dumps, returns as an action or throws contains key material, the
/// nonce before its reveal, the QR's commitment or the credential (Spec 6.5, 7.1).
@Suite struct SecretFreeOutputTests {
    /// The secrets of a pair at this moment, as bytes: every guarded buffer either side owns
    /// (read before they are wiped), the QR commitment and the password.
    static func secrets(of pair: SessionPair) -> [[UInt8]] {
        var all = [pair.sender.payload.commitment, Array(Fixtures.password.utf8)]
        all += pair.sender.keptSecrets.filter { !$0.isWiped }.map { $0.revealedBytes() }
        all += (pair.receiver?.keptSecrets ?? []).filter { !$0.isWiped }.map { $0.revealedBytes() }
        return all
    }

    /// Every way a value can end up in a log: description, debug description, dump.
    static func renderings(_ values: [Any]) -> String {
        var text = ""
        for value in values {
            text += String(describing: value) + "\n" + String(reflecting: value) + "\n"
            dump(value, to: &text)
        }
        return text
    }

    /// How `text` shows any of `secrets` (their first 8 bytes): as hex, as decimal numbers in a
    /// row (an array's description or dump), or as ASCII text.
    static func leaks(in text: String, _ secrets: [[UInt8]]) -> [String] {
        let numbers = "," + text.split { !$0.isASCII || !$0.isNumber }.joined(separator: ",") + ","
        let lowercased = text.lowercased()
        var found: [String] = []
        for secret in secrets where secret.count >= 8 {
            let window = Array(secret.prefix(8))
            if lowercased.contains(Hex.encode(window)) { found.append("hex \(Hex.encode(window))") }
            if numbers.contains("," + window.map(String.init).joined(separator: ",") + ",") { found.append("numbers \(window)") }
            if let ascii = String(bytes: secret, encoding: .utf8), ascii.allSatisfy(\.isASCII), lowercased.contains(ascii.lowercased()) {
                found.append("text")
            }
        }
        return found
    }

    static func expectNoSecret(in text: String, _ secrets: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
        let found = leaks(in: text, secrets)
        #expect(found.isEmpty, "\(found)", sourceLocation: sourceLocation)
    }

    /// The detector itself finds a secret in each form it looks for.
    @Test func theLeakDetectorFindsEachForm() {
        let secret: [UInt8] = [200, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        #expect(!Self.leaks(in: String(describing: secret), [secret]).isEmpty)
        #expect(!Self.leaks(in: Self.renderings([secret]), [secret]).isEmpty)
        #expect(!Self.leaks(in: "x" + Hex.encode(secret).uppercased(), [secret]).isEmpty)
        #expect(!Self.leaks(in: "pw: correct-horse-battery-staple-9f27", [Array(Fixtures.password.utf8)]).isEmpty)
        #expect(Self.leaks(in: Self.renderings([Array(secret.dropFirst())]), [secret]).isEmpty)
    }

    @Test func sessionsStepsActionsAndOutcomesNeverRenderASecret() throws {
        let pair = try SessionPair()
        var rendered = Self.renderings([pair.sender, pair.sender.payload])
        var secrets = Self.secrets(of: pair)
        for step in SessionPair.Step.allCases.dropFirst() {
            try pair.run(until: step)
            secrets += Self.secrets(of: pair)
            var values: [Any] = [pair.sender, pair.receiver as Any, pair.sender.phase, pair.receiver.phase]
            if let sent = pair.lastSenderStep { values += [sent] + sent.actions }
            if let received = pair.lastReceiverStep { values += [received] + received.actions }
            if let delivered = pair.delivered { values += [delivered, delivered.credential] }
            rendered += Self.renderings(values)
        }
        rendered += Self.renderings([pair.sender.outcome as Any, pair.receiver.outcome as Any, pair.sender.shortCode as Any])
        Self.expectNoSecret(in: rendered, secrets)
        // The renderings did say something: the phases and the outcome are there.
        #expect(rendered.contains("awaitingReceipt"))
        #expect(rendered.contains("imported"))
        #expect(rendered.contains("SecretBytes(redacted)"))
    }

    @Test func theDeliveredCredentialIsRedactedWhereverItIsPrinted() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        let delivered = try #require(pair.delivered)
        let step = try #require(pair.lastReceiverStep)
        let text = Self.renderings([delivered, delivered.credential, step, step.actions, ReceiverAction.deliverAccount(delivered)])
        #expect(!text.contains(Fixtures.password))
        Self.expectNoSecret(in: text, [Array(Fixtures.password.utf8)])
        #expect(text.contains("SecretBytes(redacted)"))
        #expect(!text.contains("\(Fixtures.password.utf8.count)"))  // not even its length
    }

    /// The payload's description and mirror leave the commitment (the QR secret) out.
    @Test func thePayloadNeverRendersItsCommitment() throws {
        let pair = try SessionPair()
        let payload = pair.sender.payload
        let text = Self.renderings([payload, pair.sender, [payload]])
        Self.expectNoSecret(in: text, [payload.commitment])
        #expect(text.contains(payload.transferID.description))
        #expect(Mirror(reflecting: payload).children.compactMap(\.label)
                == ["version", "intent", "transferID", "expiry", "senderPublicKey", "rendezvous"])
    }

    /// Errors, ignored frames and failures carry identifiers and public values, never bytes of
    /// a frame or a key.
    @Test func errorsFromEveryKindOfRefusalHoldNoSecret() throws {
        let pair = try SessionPair()
        try pair.run(until: .offerReceived)
        let secrets = Self.secrets(of: pair)
        var errors: [HandoffError] = []
        var tampered = try #require(pair.sender.sealForgedFrame(.abort, plaintext: [1], linkID: nil))
        tampered[30] ^= 1
        for bytes in [tampered, pair.senderFrames[0], [UInt8](repeating: 7, count: 5000), pair.receiverFrames[0]] {
            errors += try pair.receive(.frameReceived(bytes)).actions.compactMap(\.ignoredError)
            errors += try pair.send(.frameReceived(bytes)).actions.compactMap(\.ignoredError)
        }
        do { _ = try pair.sender.handle(.credentialProvided(Fixtures.secret(Fixtures.password)), now: Fixtures.start) } catch {
            errors.append(error)
        }
        do { _ = try pair.sender.handle(.tick, now: Date(timeIntervalSince1970: .nan)) } catch { errors.append(error) }
        #expect(errors.count == 10)
        let text = Self.renderings(errors) + errors.map(\.identifier).joined(separator: " ")
        Self.expectNoSecret(in: text, secrets)
        #expect(Set(errors.map(\.identifier)) == ["authenticationFailed", "replayed", "oversizedFrame", "unexpectedMessage",
                                                 "invalidEvent", "invalidClock"])
    }

    @Test func errorIdentifiersAreDistinctAndFollowSpec72() {
        let errors: [HandoffError] = [
            .badMagic, .unsupportedVersion(1), .wrongIntent(3), .nonCanonicalEncoding, .rendezvousTooLong(40),
            .malformed(.commitment), .expired, .expiryTooFar, .oversizedFrame(5000), .unknownMessageType(9),
            .unknownTransfer, .replayed, .outOfOrder, .unexpectedMessage(.offer, in: .sender(.awaitingHello)),
            .authenticationFailed, .lowOrderPublicKey, .commitmentMismatch, .keyDerivationFailed,
            .invalidEvent(.cancel, in: .receiver(.awaitingImportResult)), .invalidClock, .sessionFinished,
            .cancelledByPeer, .rejectedByPeer, .anotherDeviceJoined, .transportLost, .transferIDInUse, .alreadyScanned,
            .transferConsumed, .invalidConfiguration, .secureMemoryUnavailable(.lockLimitReached), .registryUnavailable(.corrupt),
        ]
        #expect(Set(errors.map(\.identifier)).count == errors.count)
        #expect(HandoffError.malformed(.displayName).identifier == "malformed.displayName")
        #expect(HandoffError.Field.allCases.map { HandoffError.malformed($0).identifier }.allSatisfy { $0.hasPrefix("malformed.") })
    }
}
