import Foundation
import Testing
@_spi(Testing) @_spi(Vectors) @testable import AccountHandoff

/// Nothing a session prints, dumps or throws contains key material or the credential.
@Suite struct SecretFreeOutputTests {
    @Test func dumpsAndDescriptionsOfLiveSessionsHoldNoSecret() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        let delivered = try #require(pair.delivered)
        var secrets = pair.sender.guardedSecrets.map { Hex.encode($0.revealedBytes()) }
        secrets += pair.receiver.guardedSecrets.map { Hex.encode($0.revealedBytes()) }
        secrets.append(Hex.encode(pair.sender.payload.challenge))
        var printed = ""
        dump(pair.sender, to: &printed)
        dump(pair.receiver, to: &printed)
        dump(delivered, to: &printed)
        printed += "\(pair.sender) \(pair.receiver!) \(delivered) \(delivered.credential) \(String(reflecting: delivered.credential))"
        printed += pair.sender.payload.description
        #expect(!printed.contains(Fixtures.password))
        for secret in secrets where secret.count >= 32 {
            #expect(!Hex.encode(Array(printed.utf8)).contains(secret))
            #expect(!printed.contains(secret))
        }
        #expect(printed.contains("awaitingReceipt"))
    }

    @Test func everyErrorDescriptionIsASentenceWithoutBytes() {
        let errors: [HandoffError] = [
            .badMagic, .unsupportedVersion(2), .wrongIntent(3), .nonCanonicalEncoding, .rendezvousTooLong(40),
            .malformed(.challenge), .expired, .expiryTooFar, .oversizedFrame(5000), .unknownMessageType(9),
            .unknownTransfer, .replayed, .outOfOrder, .unexpectedMessage(.offer, in: .awaitingHello),
            .authenticationFailed, .lowOrderPublicKey, .keyDerivationFailed, .invalidEvent(.cancel, in: .finished),
            .sessionFinished, .cancelledByPeer, .rejectedByPeer, .anotherDeviceJoined, .transportLost,
            .transferIDInUse, .alreadyScanned, .transferConsumed, .invalidConfiguration,
        ]
        #expect(Set(errors.map(\.identifier)).count == errors.count)
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(error.description.first?.isUppercase == true)
        }
    }
}
