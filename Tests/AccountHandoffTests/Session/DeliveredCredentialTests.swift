import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 6.5: the credential handed over by `deliverAccount` belongs to the app. Nothing the
/// session does afterwards (a peer's frame, an expiry tick, a lost transport, the end of the
/// session, the session being released) may wipe it under an import that is still running,
/// and a wiped secret never reads as zeros: it traps.
@Suite struct DeliveredCredentialTests {
    static let password = Array(Fixtures.password.utf8)

    static func delivered() throws -> (SessionPair, SecretBytes) {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        return (pair, try #require(pair.delivered).credential)
    }

    @Test func anAbortFromThePeerDoesNotWipeIt() throws {
        let (pair, credential) = try Self.delivered()
        let abort = try #require(pair.sender.sealForgedFrame(.abort, plaintext: [1], linkID: nil))
        _ = try pair.receive(.frameReceived(abort))
        #expect(bytes(of: credential) == Self.password)
        // The sender's own ending after delivery sends nothing, and changes nothing here either.
        _ = try pair.send(.cancel)
        #expect(bytes(of: credential) == Self.password)
    }

    @Test func anExpiryTickDoesNotWipeIt() throws {
        let (pair, credential) = try Self.delivered()
        _ = try pair.receive(.tick, at: Fixtures.time(Fixtures.lifetime + Fixtures.skew + 3600))
        #expect(bytes(of: credential) == Self.password)
        _ = try pair.send(.tick, at: Fixtures.time(Fixtures.lifetime + 120))  // the sender expires
        #expect(bytes(of: credential) == Self.password)
    }

    @Test func aLostTransportDoesNotWipeIt() throws {
        let (pair, credential) = try Self.delivered()
        _ = try pair.receive(.transportLost)
        #expect(bytes(of: credential) == Self.password)
    }

    @Test(arguments: ReceiptStatus.allCases)
    func theEndOfTheSessionDoesNotWipeIt(status: ReceiptStatus) throws {
        let (pair, credential) = try Self.delivered()
        _ = try pair.receive(.importFinished(status))
        #expect(pair.receiver.phase == .finished)
        #expect(pair.receiver.memory.hasEnded)
        #expect(!credential.isWiped)
        #expect(bytes(of: credential) == Self.password)
    }

    @Test func releasingBothSessionsDoesNotWipeIt() throws {
        let credential: SecretBytes
        do {
            let (pair, delivered) = try Self.delivered()
            _ = try pair.receive(.importFinished(.imported))
            credential = delivered
        }
        #expect(bytes(of: credential) == Self.password)
        credential.wipe()  // the app's job, once its import is done
        #expect(credential.isWiped)
        #expect(credential.isAllZero)
    }

    /// The sender's buffer is not the one delivered: the sender wiped its copy when it sealed.
    @Test func theSendersPasswordBufferIsWipedWhenSealed() throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        let provided = Fixtures.secret(Fixtures.password)
        _ = try pair.send(.credentialProvided(provided))
        #expect(provided.isWiped)
        #expect(provided.isAllZero)
        _ = try pair.receive(.frameReceived(pair.senderFrames[2]))
        let delivered = try #require(pair.delivered).credential
        #expect(delivered !== provided)
        #expect(bytes(of: delivered) == Self.password)
    }

    // MARK: A wiped secret traps instead of reading as zeros

    @Test func readingAWipedSecretTraps() async {
        await #expect(processExitsWith: .failure) {
            let secret = try SecretBytes(copying: [1, 2, 3])
            secret.wipe()
            _ = secret.withUnsafeBytes { $0.first }
        }
    }

    @Test func revealingAWipedSecretTraps() async {
        await #expect(processExitsWith: .failure) {
            let secret = try SecretBytes(copying: [1, 2, 3])
            secret.wipe()
            _ = secret.revealedBytes()
        }
    }

    @Test func comparingAWipedSecretTraps() async {
        await #expect(processExitsWith: .failure) {
            let secret = try SecretBytes(copying: [1, 2, 3])
            secret.wipe()
            _ = secret.constantTimeEquals([0, 0, 0])
        }
    }

    /// The app reading a delivered credential after it wiped it itself traps too: no path yields
    /// zeros that could be stored as a password.
    @Test func readingADeliveredCredentialAfterTheAppWipedItTraps() async {
        await #expect(processExitsWith: .failure) {
            let pair = try SessionPair()
            try pair.run(until: .credentialReceived)
            let credential = try #require(pair.delivered).credential
            credential.wipe()
            _ = credential.withUnsafeBytes { Array($0) }
        }
    }

    /// The control: the same reading before the wipe exits normally, so the traps above are the wipe's.
    @Test func readingALiveSecretInAChildProcessSucceeds() async {
        await #expect(processExitsWith: .success) {
            let secret = try SecretBytes(copying: [1, 2, 3])
            guard secret.withUnsafeBytes({ Array($0) }) == [1, 2, 3] else { exit(1) }
        }
    }
}
