@testable import AccountHandoffBench
import Foundation
import Testing
@testable import AccountHandoff

/// The benchmark's floor makes exactly the libsodium calls of a real session: the
/// same counts of random draws, X25519, SHA-256, HMAC and AEAD calls with the same byte counts,
/// counted where libsodium is called (``SodiumCalls``, with glibc) on a real session (both state
/// machines, the production random source) and on the floor. Times are never asserted.
@Suite struct SessionFloorTests {
    /// A real session and the floor of the same inputs, each measured once.
    private static func measure(_ session: ReferenceSession) throws -> (session: SodiumCalls.Counts, floor: SodiumCalls.Counts, wire: ReferenceSession.Wire) {
        let (wire, sessionCounts) = try SodiumCalls.measure { () throws(ReferenceSession.Failure) in
            try session.run(random: SystemRandomSource(), now: Date())
        }
        let floor = SessionFloor(session)
        return (try #require(sessionCounts), try counts { floor.runOneSession() }, wire)
    }

    /// The libsodium calls `body` makes.
    private static func counts(_ body: () -> Void) throws -> SodiumCalls.Counts {
        try #require(SodiumCalls.measure(body).1, "libsodium calls are counted with glibc")
    }

    @Test func theFloorMakesTheCallsOfTheBenchmarkedSession() throws {
        let (session, floor, wire) = try Self.measure(.typical)
        #expect(floor == session, "floor:\n\(floor)\nsession:\n\(session)")

        // The session itself, pinned (Spec 4): the sender draws nonce and key, the receiver its
        // key; each side one key pair and one DH; SHA-256 for the commitment (twice: made and
        // checked), the transfer ID and TH0 (each side), HH and TH1 (each side) and every later
        // frame but the receipt, which ends the session (each side); per side an HKDF-Extract and four Expands, the hello
        // tag, and three HMACs for the short code; five frames sealed and opened.
        var expected = SodiumCalls.Counts()
        expected.randomCalls = 3; expected.randomBytes = 96
        expected.scalarMultBase = 2; expected.scalarMult = 2
        let qr = SessionPayload.fixedByteCount + ReferenceSession.typical.rendezvous.bytes.count
        let offerFrame = 24 + 256 + 16
        let frames = 2 * (88 + 72 + offerFrame + 41 + 1064)
        expected.sha256Hashes = 2 + 4 + 2 + 2 + 2 * 4
        expected.sha256Bytes = 2 * (14 + 32) + 2 * (15 + qr) + 2 * (14 + qr) + 2 * 64 + 2 * 5 * 32 + frames
        expected.hmacs = 2 * 9
        expected.hmacKeyBytes = 2 * 9 * 32
        expected.hmacMessageBytes = 2 * (64 + 10 + 8 + 8 + 13 + 32 + 64 + 9 + 41)
        expected.aeadSeals = 5; expected.aeadSealedBytes = 32 + 256 + 1 + 1024 + 1
        expected.aeadSealADBytes = 60 + 60 + 76 + 76 + 76
        expected.aeadOpens = 5; expected.aeadOpenedBytes = expected.aeadSealedBytes + 5 * 16
        expected.aeadOpenADBytes = expected.aeadSealADBytes
        #expect(session == expected, "session:\n\(session)\nexpected:\n\(expected)")
        #expect(wire == ReferenceSession.Wire(frames: 6, bytes: 88 + 72 + offerFrame + 41 + 1064 + 41))
    }

    /// The offer's record size and the rendezvous length reach the floor: a two-block offer and
    /// the longest and shortest rendezvous still match call for call and byte for byte.
    @Test(arguments: [(longName: true, rendezvous: 32), (longName: false, rendezvous: 0)])
    func theFloorFollowsTheSessionsSizes(longName: Bool, rendezvous: Int) throws {
        let account = try AccountMetadata(
            linkID: AccountLinkID(uuid: UUID()), displayName: longName ? "Ada Lovelace" : "A", emailAddress: "ada@example.org",
            username: longName ? String(repeating: "ada.lovelace.", count: 20) : "ada", imapHost: "imap.example.org",
            imapPort: 993, imapSecurity: .tls)
        let session = ReferenceSession(account: account, rendezvous: try RendezvousToken(bytes: Array(repeating: 7, count: rendezvous)),
                                       password: "p")
        let (real, floor, _) = try Self.measure(session)
        #expect(floor == real, "floor:\n\(floor)\nsession:\n\(real)")
        #expect(SessionFloor(session).shape == SessionFloor.Shape(qrBinaryByteCount: 71 + rendezvous,
                                                                  offerPlaintextByteCount: longName ? 512 : 256))
    }

    /// The comparison is sharp: a floor built for another record size or rendezvous does not
    /// match the typical session.
    @Test func aFloorOfOtherSizesDoesNotMatch() throws {
        let (session, _, _) = try Self.measure(.typical)
        let typical = ReferenceSession.typical
        let longer = try AccountMetadata(
            linkID: typical.account.linkID, displayName: typical.account.displayName, emailAddress: typical.account.emailAddress,
            username: String(repeating: "x", count: 300), imapHost: typical.account.imapHost, imapPort: 993, imapSecurity: .tls)
        let largerOffer = try Self.counts { SessionFloor(account: longer, rendezvous: typical.rendezvous).runOneSession() }
        #expect(largerOffer != session)
        #expect(largerOffer.aeadSealedBytes == session.aeadSealedBytes + 256)
        let shorterQR = try Self.counts {
            SessionFloor(account: typical.account, rendezvous: try! RendezvousToken(bytes: [])).runOneSession()
        }
        #expect(shorterQR.sha256Bytes == session.sha256Bytes - 4 * typical.rendezvous.bytes.count)
    }

    /// Each run of one floor does the same work: its buffers are reused, not grown.
    @Test func repeatedRunsOfOneFloorCountTheSame() throws {
        let floor = SessionFloor(.typical)
        let first = try Self.counts { floor.runOneSession() }
        let three = try Self.counts { for _ in 0..<3 { floor.runOneSession() } }
        #expect(three.sha256Bytes == 3 * first.sha256Bytes)
        #expect(three.hmacs == 3 * first.hmacs && three.aeadOpens == 3 * first.aeadOpens && three.randomCalls == 3 * first.randomCalls)
    }
}
