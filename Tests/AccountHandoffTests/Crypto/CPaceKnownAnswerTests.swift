import AccountHandoffTestSupport
import Testing
@testable import AccountHandoff

/// CPACE-RISTR255-SHA512 (Spec 12.6) against every known answer the CPace draft publishes for
/// ristretto255 (`G_Coffee25519` and `G_Coffee25519_points` of the vendored
/// `cpace_testvectors.json`), and the draft's string functions and generator-string vectors
/// (the base64 blocks of the vendored draft). Each answer goes through the code the protocol
/// runs: ``CPaceRun`` for the shares and the ISK, ``CPace`` for the rest.
@Suite struct CPaceKnownAnswerTests {
    /// The draft's `G_Coffee25519` inputs.
    private struct Inputs {
        let group: [String: Any]
        let password, channelIdentifier, sessionID: [UInt8]
        init() throws {
            group = try CPaceDraftVectors.group("G_Coffee25519")
            password = try group.cpaceHex("PRS")
            channelIdentifier = try group.cpaceHex("CI")
            sessionID = try group.cpaceHex("sid")
        }

        func run(_ role: CPaceRun.Role) throws -> CPaceRun {
            try VectorPrimitives.cpaceRun(role: role, password: password, channelIdentifier: channelIdentifier,
                                          sessionID: sessionID, scalar: try group.cpaceHex(role == .initiator ? "ya" : "yb"))
        }

        func share(_ key: String) throws -> CPaceShare { try #require(CPaceShare(bytes: try group.cpaceHex(key))) }
    }

    @Test func prependLengthAndLengthValueConcatenationMatchTheDraft() throws {
        let block = try CPaceDraftVectors.draftBlock(containing: "prepend_len(b'')")
        let cases: [(String, [UInt8])] = [("prepend_len(b'')", []), ("prepend_len(b'1234')", Array("1234".utf8)),
                                          ("prepend_len(bytes(range(127)))", Array(0..<127)),
                                          ("prepend_len(bytes(range(128)))", Array(0..<128))]
        for (key, input) in cases {
            #expect(VectorPrimitives.cpacePrependLength(input) == (try block.cpaceHex(key)), "\(key)")
        }
        let lv = try CPaceDraftVectors.draftBlock(containing: "lv_cat(b'1234',b'5',b'',b'678')")
        #expect(VectorPrimitives.cpaceLengthValueConcatenation([Array("1234".utf8), Array("5".utf8), [], Array("678".utf8)])
            == (try lv.cpaceHex("lv_cat(b'1234',b'5',b'',b'678')")))
        // LEB128 beyond one byte, as the draft's prepend_len code computes it.
        #expect(LengthValue.length(300) == [0xac, 0x02])
        #expect(LengthValue.length(16384) == [0x80, 0x80, 0x01])
    }

    @Test func orderedConcatenationAndTranscriptsMatchTheDraft() throws {
        // The comparisons the draft lists under "Test vectors ordered concatenation".
        let comparisons: [([UInt8], [UInt8], Bool)] = [([0], [0, 0], false), ([1], [0, 0], true), ([0, 0], [0], true),
                                                       ([0, 0], [1], false), ([0, 1], [1], false),
                                                       (Array("ABCD".utf8), Array("BCD".utf8), false)]
        for (first, second, larger) in comparisons {
            #expect(VectorPrimitives.cpaceLexicographicallyLarger(first, second) == larger, "\(first) > \(second)")
        }
        let oc = try CPaceDraftVectors.draftBlock(containing: "o_cat(b'ABCD',b'BCD')")
        #expect(VectorPrimitives.cpaceOrderedConcatenation(Array("ABCD".utf8), Array("BCD".utf8)) == (try oc.cpaceHex("o_cat(b'ABCD',b'BCD')")))
        #expect(VectorPrimitives.cpaceOrderedConcatenation(Array("BCD".utf8), Array("ABCDE".utf8))
            == (try oc.cpaceHex("o_cat(b'BCD',b'ABCDE')")))
        // transcript_ir and transcript_oc with the draft's short stand-ins for shares.
        let ir = try CPaceDraftVectors.draftBlock(containing: "transcript_ir(b'123',b'PartyA',b'234',b'PartyB')")
        let oc2 = try CPaceDraftVectors.draftBlock(containing: "transcript_oc(b'123',b'PartyA',b'234',b'PartyB')")
        for (ya, yb) in [("123", "234"), ("3456", "2345")] {
            let messageA = LengthValue.concatenated([Array(ya.utf8), Array("PartyA".utf8)])
            let messageB = LengthValue.concatenated([Array(yb.utf8), Array("PartyB".utf8)])
            #expect(messageA + messageB == (try ir.cpaceHex("transcript_ir(b'\(ya)',b'PartyA',b'\(yb)',b'PartyB')")))
            #expect(CPace.orderedConcatenation(messageA, messageB) == (try oc2.cpaceHex("transcript_oc(b'\(ya)',b'PartyA',b'\(yb)',b'PartyB')")))
        }
    }

    @Test func generatorStringItsHashAndTheGeneratorMatchTheDraft() throws {
        let block = try CPaceDraftVectors.draftBlock(containing: "encoded generator g",
                                                     after: "Test vectors for calculate\\_generator with group ristretto255")
        #expect(try block.cpaceHex("DSI") == CPace.domainSeparator)
        #expect(block["H.s_in_bytes"] as? Int == SHA512.blockByteCount)
        let password = try block.cpaceHex("PRS")
        #expect(block["ZPAD length"] as? Int == VectorPrimitives.cpaceZeroPaddingLength(passwordByteCount: password.count))
        let generatorString = VectorPrimitives.cpaceGeneratorString(password: password, channelIdentifier: try block.cpaceHex("CI"),
                                                                    sessionID: try block.cpaceHex("sid"))
        #expect(generatorString == (try block.cpaceHex("generator_string(G.DSI,PRS,CI,sid,H.s_in_bytes)")))
        #expect(VectorPrimitives.sha512(generatorString) == (try block.cpaceHex("hash result")))
        let generator = try VectorPrimitives.cpaceGenerator(password: password, channelIdentifier: try block.cpaceHex("CI"),
                                                            sessionID: try block.cpaceHex("sid"))
        #expect(generator == (try block.cpaceHex("encoded generator g")))
        // The JSON file's G_Coffee25519 has the same inputs and generator.
        let inputs = try Inputs()
        #expect(inputs.password == password)
        #expect(generator == (try inputs.group.cpaceHex("g")))
    }

    @Test func sharesAreTheDraftsYaAndYb() throws {
        let inputs = try Inputs()
        #expect(try inputs.run(.initiator).ownShare == (try inputs.share("Ya")))
        #expect(try inputs.run(.responder).ownShare == (try inputs.share("Yb")))
        let generator = try inputs.group.cpaceHex("g")
        #expect(try VectorPrimitives.cpaceScalarMult(scalar: try inputs.group.cpaceHex("ya"), element: generator)
            == (try inputs.group.cpaceHex("Ya")))
    }

    @Test func sharedPointKIsTheSameBothWays() throws {
        let group = try Inputs().group
        let k = try group.cpaceHex("K")
        #expect(try VectorPrimitives.cpaceSharedPoint(scalar: try group.cpaceHex("ya"), share: try group.cpaceHex("Yb")) == k)
        #expect(try VectorPrimitives.cpaceSharedPoint(scalar: try group.cpaceHex("yb"), share: try group.cpaceHex("Ya")) == k)
    }

    /// `ISK_IR` from both parties' runs, with the draft's associated data; each run wipes its
    /// scalar once it has its key.
    @Test func initiatorResponderISKFromBothRoles() throws {
        let inputs = try Inputs()
        let expected = try inputs.group.cpaceHex("ISK_IR")
        let initiator = try inputs.run(.initiator)
        let responder = try inputs.run(.responder)
        let ada = try inputs.group.cpaceHex("ADa"), adb = try inputs.group.cpaceHex("ADb")
        let keyA = try initiator.intermediateSessionKey(peerShare: try inputs.share("Yb"), ownAssociatedData: ada, peerAssociatedData: adb)
        let keyB = try responder.intermediateSessionKey(peerShare: try inputs.share("Ya"), ownAssociatedData: adb, peerAssociatedData: ada)
        #expect(keyA.revealedBytes() == expected)
        #expect(keyB.revealedBytes() == expected)
        #expect(initiator.isWiped && responder.isWiped)
        let transcript = try #require(VectorPrimitives.cpaceInitiatorResponderTranscript(
            ya: try inputs.group.cpaceHex("Ya"), ada: ada, yb: try inputs.group.cpaceHex("Yb"), adb: adb))
        #expect(try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: inputs.sessionID, k: try inputs.group.cpaceHex("K"),
                                                                 transcript: transcript) == expected)
    }

    @Test func symmetricISKAndSessionIDOutputs() throws {
        let inputs = try Inputs()
        let (ya, ada) = (try inputs.group.cpaceHex("Ya"), try inputs.group.cpaceHex("ADa"))
        let (yb, adb) = (try inputs.group.cpaceHex("Yb"), try inputs.group.cpaceHex("ADb"))
        let ordered = try #require(VectorPrimitives.cpaceOrderedTranscript(ya: ya, ada: ada, yb: yb, adb: adb))
        let initiatorResponder = try #require(VectorPrimitives.cpaceInitiatorResponderTranscript(ya: ya, ada: ada, yb: yb, adb: adb))
        #expect(try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: inputs.sessionID, k: try inputs.group.cpaceHex("K"),
                                                                 transcript: ordered) == (try inputs.group.cpaceHex("ISK_SY")))
        #expect(VectorPrimitives.cpaceSessionIDOutput(transcript: initiatorResponder) == (try inputs.group.cpaceHex("sid_output_ir")))
        #expect(VectorPrimitives.cpaceSessionIDOutput(transcript: ordered) == (try inputs.group.cpaceHex("sid_output_oc")))
        // The same transcript either way round in the symmetric setting.
        #expect(VectorPrimitives.cpaceOrderedTranscript(ya: yb, ada: adb, yb: ya, adb: ada) == ordered)
    }

    /// `G_Coffee25519_points`: the valid case multiplies as the draft says; every invalid
    /// point (each key that starts with "Invalid") is refused by `scalar_mult_vfy`, and a run
    /// given one as the peer's share derives nothing and keeps its scalar.
    @Test func everyPointCaseOfTheDraft() throws {
        let points = try CPaceDraftVectors.group("G_Coffee25519_points")
        let valid = try #require(points["Valid"] as? [String: Any])
        let scalar = try valid.cpaceHex("s"), element = try valid.cpaceHex("X")
        #expect(try VectorPrimitives.cpaceScalarMult(scalar: scalar, element: element) == (try valid.cpaceHex("G.scalar_mult(s,decode(X))")))
        #expect(try VectorPrimitives.cpaceSharedPoint(scalar: scalar, share: element) == (try valid.cpaceHex("G.scalar_mult_vfy(s,X)")))

        let invalidKeys = points.keys.filter { $0.hasPrefix("Invalid") }.sorted()
        #expect(invalidKeys == ["Invalid Y1", "Invalid Y2"])
        let inputs = try Inputs()
        for key in invalidKeys {
            let point = try points.cpaceHex(key)
            #expect(throws: HandoffError.invalidPakeShare, "\(key)") { try VectorPrimitives.cpaceSharedPoint(scalar: scalar, share: point) }
            let run = try inputs.run(.initiator)
            #expect(throws: HandoffError.invalidPakeShare, "\(key)") {
                _ = try run.intermediateSessionKey(peerShare: try #require(CPaceShare(bytes: point)))
            }
            #expect(!run.isWiped, "\(key): a refused share leaves the run to its caller")
            run.wipe()
        }
    }
}
