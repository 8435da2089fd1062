import AccountHandoffTestSupport
import Testing
@testable import AccountHandoff

/// CPace runs of this protocol's construction (Spec 12.6, 12.7): scalars drawn from the
/// injected random source, both roles agreeing only on the same password, `CI` and `sid`, and
/// secrets held and wiped as the Spec says.
@Suite struct CPaceRunTests {
    static let channelIdentifier = Array("a channel".utf8)
    static let sessionID = Array(0..<16).map(UInt8.init)

    static func run(_ role: CPaceRun.Role, password: String = "8150936", channelIdentifier: [UInt8] = channelIdentifier,
                    sessionID: [UInt8] = sessionID, seed: UInt64) throws -> CPaceRun {
        try CPaceRun(role: role, password: SecretBytes(utf8: password), channelIdentifier: channelIdentifier, sessionID: sessionID,
                     random: InsecureDeterministicRandom(seed: seed))
    }

    static func keys(_ initiator: CPaceRun, _ responder: CPaceRun) throws -> ([UInt8], [UInt8]) {
        let a = try initiator.intermediateSessionKey(peerShare: responder.ownShare)
        let b = try responder.intermediateSessionKey(peerShare: initiator.ownShare)
        return (a.revealedBytes(), b.revealedBytes())
    }

    @Test func bothRolesAgreeOnlyOnTheSameInputs() throws {
        let (a, b) = try Self.keys(try Self.run(.initiator, seed: 1), try Self.run(.responder, seed: 2))
        #expect(a == b && a.count == 64)
        let wrongPassword = try Self.keys(try Self.run(.initiator, seed: 1), try Self.run(.responder, password: "8150937", seed: 2))
        #expect(wrongPassword.0 != wrongPassword.1)
        let otherChannel = try Self.keys(try Self.run(.initiator, seed: 1),
                                         try Self.run(.responder, channelIdentifier: Array("another".utf8), seed: 2))
        #expect(otherChannel.0 != otherChannel.1)
        let otherSession = try Self.keys(try Self.run(.initiator, seed: 1), try Self.run(.responder, sessionID: [UInt8](repeating: 1, count: 16), seed: 2))
        #expect(otherSession.0 != otherSession.1)
        // The same roles on both ends: the transcript orders differ, so the keys do.
        let twoInitiators = try Self.keys(try Self.run(.initiator, seed: 1), try Self.run(.initiator, seed: 2))
        #expect(twoInitiators.0 != twoInitiators.1)
    }

    /// The scalar is the 64 drawn bytes reduced; the run's share is that scalar times the generator.
    @Test func theScalarIsSixtyFourDrawnBytesReduced() throws {
        let random = ScriptedRandom([Array(repeating: 0xff, count: 64)])
        let scalar = try VectorPrimitives.cpaceSampleScalar(from: random)
        #expect(random.requestedCounts == [64])
        // (2^512 - 1) mod the group order, computed independently (Python).
        #expect(Hex.encode(scalar) == "000f9c44e31106a447938568a71b0ed065bef517d273ecce3d9a307c1b419903")
        let generator = try VectorPrimitives.cpaceGenerator(password: Array("8150936".utf8), channelIdentifier: Self.channelIdentifier,
                                                            sessionID: Self.sessionID)
        let run = try CPaceRun(role: .initiator, password: SecretBytes(utf8: "8150936"), channelIdentifier: Self.channelIdentifier,
                               sessionID: Self.sessionID, random: ScriptedRandom([Array(repeating: 0xff, count: 64)]))
        #expect(run.ownShare.bytes == (try VectorPrimitives.cpaceScalarMult(scalar: scalar, element: generator)))
    }

    /// A draw that reduces to zero (here: the group order itself) is drawn again; a source that
    /// only gives such draws ends after 64 with `keyDerivationFailed`.
    @Test func aZeroScalarIsDrawnAgain() throws {
        let order = Self.groupOrderLittleEndian + [UInt8](repeating: 0, count: 32)
        let random = ScriptedRandom([order, [UInt8](repeating: 0, count: 63) + [1]])
        let scalar = try VectorPrimitives.cpaceSampleScalar(from: random)
        #expect(random.requestedCounts == [64, 64])
        #expect(scalar != [UInt8](repeating: 0, count: 32))
        let zeros = ScriptedRandom([], thenRepeating: [UInt8](repeating: 0, count: 64))
        #expect(throws: HandoffError.keyDerivationFailed) { try VectorPrimitives.cpaceSampleScalar(from: zeros) }
        #expect(zeros.requestedCounts.count == CPace.maximumScalarDraws)
    }

    /// A run is single-use: its scalar is wiped once it has its key. A refused share (not an
    /// element, or the identity) derives nothing and leaves the scalar for the caller.
    @Test func runsWipeTheirScalarAndRefuseBadShares() throws {
        let initiator = try Self.run(.initiator, seed: 5)
        for bad in [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xff, count: 32),
                    Self.groupOrderLittleEndian, [1] + [UInt8](repeating: 0, count: 31)] {
            let share = try #require(CPaceShare(bytes: bad))
            #expect(throws: HandoffError.invalidPakeShare, "\(Hex.encode(bad))") { _ = try initiator.intermediateSessionKey(peerShare: share) }
            #expect(!initiator.isWiped)
        }
        #expect(CPaceShare(bytes: [UInt8](repeating: 1, count: 31)) == nil)
        let responder = try Self.run(.responder, seed: 6)
        let key = try initiator.intermediateSessionKey(peerShare: responder.ownShare)
        #expect(initiator.isWiped)
        #expect(!key.isAllZero)
        key.wipe()
        responder.wipe()
        #expect(responder.isWiped)
        #expect(!initiator.description.contains("scalar") && initiator.description.contains(Hex.encode(initiator.ownShare.bytes)))
    }

    /// The group order `2^252 + 27742317777372353535851937790883648493`, little-endian.
    static let groupOrderLittleEndian: [UInt8] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    ]
}
