import Testing
@testable import AccountHandoff

/// The typed mode's key inputs that need no session (Spec 12.7, 12.8): `CI` and the relay's
/// token and sender side, against answers computed independently (Python, from the Spec).
@Suite struct TypedKeyInputTests {
    static let transferID = TransferID(bytes: Array(0..<16))!

    @Test func channelIdentifierOfTheLocalNetwork() {
        let ci = TypedChannelIdentifier.encode(nameplate: TypedCode.Nameplate(value: 427)!, expiry: 1_800_000_180,
                                               route: .localNetwork, transferID: Self.transferID)
        #expect(Hex.encode(ci) == "11414834207479706564206368616e6e656c0104010103343237046b49d2b4010110000102030405060708090a0b0c0d0e0f")
    }

    /// The route binds only its kind (Spec 12.7): a relay's name or address is not in `CI`.
    @Test func channelIdentifierThroughARelay() {
        let ci = TypedChannelIdentifier.encode(nameplate: TypedCode.Nameplate(value: 42)!, expiry: 1_800_000_180,
                                               route: .relay, transferID: Self.transferID)
        #expect(Hex.encode(ci) == "11414834207479706564206368616e6e656c0104010103303432046b49d2b4010210000102030405060708090a0b0c0d0e0f")
    }

    @Test func relayTokenAndSenderSideOfANameplate() throws {
        let keys = try TypedRelayKeys(nameplate: TypedCode.Nameplate(value: 427)!)
        #expect(Hex.encode(keys.relayToken) == "ac0989585aa8d02a1d2571bde9bbe52152fb271d35de597968654b4fa7b766a7")
        #expect(Hex.encode(keys.senderSide) == "d312c3fbcd287a05")
        let zero = try TypedRelayKeys(nameplate: TypedCode.Nameplate(value: 0)!)
        #expect(Hex.encode(zero.relayToken) == "c6ffe22f6a82f4bbec24f6568bf1dcbfa8f56f1ef38525cd08e6f154f3fd3c04")
        #expect(Hex.encode(zero.senderSide) == "d0ec0d5d4514ab96")
    }

    /// All 1000 nameplates give 1000 different tokens and sides.
    @Test func everyNameplateHasItsOwnTokenAndSide() throws {
        var tokens = Set<[UInt8]>(), sides = Set<[UInt8]>()
        for value in UInt16(0)..<1000 {
            let keys = try TypedRelayKeys(nameplate: TypedCode.Nameplate(value: value)!)
            tokens.insert(keys.relayToken)
            sides.insert(keys.senderSide)
        }
        #expect(tokens.count == 1000 && sides.count == 1000)
    }
}
