import AccountHandoffDiscovery
import Testing

/// The service's names and TXT record, built and read strictly.
@Suite struct ServiceRecordTests {
    let nameplate = DiscoveryNameplate(427)!

    @Test func theNamesOfASender() {
        #expect(DiscoveryServiceNames.serviceType == "_accounthandoff._tcp")
        #expect(DiscoveryServiceNames.domain == "local")
        #expect(DiscoveryServiceNames.instanceName(for: nameplate) == "AccountHandoff 427")
        #expect(DiscoveryServiceNames.instanceName(for: DiscoveryNameplate(7)!) == "AccountHandoff 007")
    }

    @Test func theTXTRecordIsVersionThenNameplate() {
        #expect(DiscoveryTXTRecord.entries(for: nameplate) == [Array("v=4".utf8), Array("np=427".utf8)])
        #expect(DiscoveryTXTRecord.wireFormat(for: DiscoveryNameplate(0)!) == [3] + Array("v=4".utf8) + [6] + Array("np=000".utf8))
    }

    @Test(arguments: 0...999)
    func everyNameplateRoundTrips(_ value: Int) throws {
        let nameplate = try #require(DiscoveryNameplate(value))
        #expect(try DiscoveryServiceNames.nameplate(inInstanceName: DiscoveryServiceNames.instanceName(for: nameplate)) == nameplate)
        #expect(try DiscoveryTXTRecord.nameplate(inWireFormat: DiscoveryTXTRecord.wireFormat(for: nameplate)) == nameplate)
        #expect(DiscoveryNameplate(digits: nameplate.digits) == nameplate)
    }

    @Test func nameplatesAreThreeASCIIDigits() {
        #expect(DiscoveryNameplate(1000) == nil)
        #expect(DiscoveryNameplate(-1) == nil)
        for text in ["", "42", "4270", " 42", "42 ", "+42", "4a2", "٤٢٧", "４２７"] {
            #expect(DiscoveryNameplate(digits: text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        "AccountHandoff 42", "AccountHandoff 4270", "accounthandoff 427", "AccountHandoff  427", "AccountHandoff 427 #2",
        "AccountHandoff 427 (2)", "AccountHandoff ٤٢٧", "AccountHandoff-427", "XAccountHandoff 427", "", "AccountHandoff ",
    ])
    func otherInstanceNamesAreNotOurs(_ name: String) {
        #expect(throws: DiscoveryIgnoreReason.instanceNameNotOurs) { try DiscoveryServiceNames.nameplate(inInstanceName: name) }
    }

    @Test func otherTXTRecordsAreNotOursWithTheirReason() {
        func reason(_ entries: [String]) -> DiscoveryIgnoreReason? {
            do throws(DiscoveryIgnoreReason) {
                _ = try DiscoveryTXTRecord.nameplate(inEntries: entries.map { Array($0.utf8) })
                return nil
            } catch { return error }
        }
        #expect(reason(["v=4", "np=427"]) == nil)
        #expect(reason([]) == .txtEntryCount(0))
        #expect(reason(["v=4"]) == .txtEntryCount(1))
        #expect(reason(["v=4", "np=427", "x=1"]) == .txtEntryCount(3))
        #expect(reason(["v=4", "np=427", ""]) == .txtEntryCount(3))
        #expect(reason(["np=427", "v=4"]) == .versionEntryMissing)
        #expect(reason(["V=4", "np=427"]) == .versionEntryMissing)
        #expect(reason(["v=", "np=427"]) == .versionEntryMissing)
        #expect(reason(["v=4 ", "np=427"]) == .versionEntryMissing)
        #expect(reason(["v=3", "np=427"]) == .otherVersion)
        #expect(reason(["v=5", "np=427"]) == .otherVersion)
        #expect(reason(["v=04", "np=427"]) == .otherVersion)
        #expect(reason(["v=4", "np=42"]) == .nameplateEntryMalformed)
        #expect(reason(["v=4", "np=4270"]) == .nameplateEntryMalformed)
        #expect(reason(["v=4", "NP=427"]) == .nameplateEntryMalformed)
        #expect(reason(["v=4", "np=4a7"]) == .nameplateEntryMalformed)
        #expect(reason(["v=4", "np= 427"]) == .nameplateEntryMalformed)
        #expect(reason(["v=4", "n=427"]) == .nameplateEntryMalformed)
        #expect(reason(["v=4", "np=٤٢٧"]) == .nameplateEntryMalformed)
    }

    @Test func aTXTRecordWhoseLengthRunsPastItsEndIsNotOurs() {
        let wire = DiscoveryTXTRecord.wireFormat(for: nameplate)
        #expect(throws: DiscoveryIgnoreReason.txtMalformed) { try DiscoveryTXTRecord.nameplate(inWireFormat: Array(wire.dropLast())) }
        #expect(throws: DiscoveryIgnoreReason.txtMalformed) { try DiscoveryTXTRecord.nameplate(inWireFormat: [7] + Array("v=4".utf8)) }
        #expect(throws: DiscoveryIgnoreReason.txtEntryCount(3)) { try DiscoveryTXTRecord.nameplate(inWireFormat: wire + [0]) }
        #expect(throws: DiscoveryIgnoreReason.txtEntryCount(1)) { try DiscoveryTXTRecord.nameplate(inWireFormat: [0]) }
        #expect(throws: DiscoveryIgnoreReason.txtEntryCount(0)) { try DiscoveryTXTRecord.nameplate(inWireFormat: []) }
    }

    /// Every byte string up to two bytes, as a whole record: the parser never crashes and
    /// accepts none of them.
    @Test func shortRecordsNeverParseOrCrash() {
        var accepted = 0
        for length in 0...2 {
            for value in 0..<(1 << (8 * length)) {
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
                if (try? DiscoveryTXTRecord.nameplate(inWireFormat: bytes)) != nil { accepted += 1 }
            }
        }
        #expect(accepted == 0)
    }
}

/// What a browser resolves: senders' names only, and only the nameplate's when it looks for one.
@Suite struct ResolutionFilterTests {
    @Test func onlySendersAndTheNameplateLookedForAreResolved() {
        let looked = DiscoveryNameplate(427)!
        #expect(DiscoveryServiceNames.isWorthResolving("AccountHandoff 427", lookingFor: looked))
        #expect(!DiscoveryServiceNames.isWorthResolving("AccountHandoff 428", lookingFor: looked))
        #expect(DiscoveryServiceNames.isWorthResolving("AccountHandoff 428", lookingFor: nil))
        for name in ["Printer 427", "AccountHandoff 427 #2", "", "AccountHandoff"] {
            #expect(!DiscoveryServiceNames.isWorthResolving(name, lookingFor: looked))
            #expect(!DiscoveryServiceNames.isWorthResolving(name, lookingFor: nil))
        }
    }
}
