import AccountHandoffDiscovery
import AccountHandoffTransport
import Testing

/// The receiver's decision over what it collected, and the address rules.
@Suite struct DiscoveryCollectionTests {
    let nameplate = DiscoveryNameplate(427)!

    func sender(_ address: String, port: UInt16 = 40123, interface: Int32 = 2, name: String = "AccountHandoff 427",
                txt: [String] = ["v=4", "np=427"], domain: String = "local") -> DiscoveredService {
        DiscoveredService(instanceName: name, domain: domain, interfaceIndex: interface, address: .ipv4(IPv4Address(address)!), port: port,
                          txtEntries: txt.map { Array($0.utf8) })
    }

    @Test func exactlyOneAddressAndPortIsConnectedTo() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20"))
        #expect(collection.decision(for: nameplate) == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
    }

    @Test func nothingForTheNameplateIsNotFound() {
        var collection = DiscoveryCollection()
        #expect(collection.decision(for: nameplate) == .notFound)
        collection.found(sender("192.168.1.20", name: "AccountHandoff 428", txt: ["v=4", "np=428"]))
        #expect(collection.decision(for: nameplate) == .notFound)
        #expect(collection.decision(for: DiscoveryNameplate(428)!) == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
    }

    @Test func twoDevicesShowingTheNameplateAreAmbiguous() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", interface: 2))
        collection.found(sender("10.0.0.7", interface: 3))
        #expect(collection.decision(for: nameplate) == .ambiguous(endpoints: 2))
    }

    @Test func oneAddressWithTwoPortsIsAmbiguous() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", port: 40123, interface: 2))
        collection.found(sender("192.168.1.20", port: 40124, interface: 3))
        #expect(collection.decision(for: nameplate) == .ambiguous(endpoints: 2))
    }

    @Test func oneSenderSeenOnTwoInterfacesIsOne() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", interface: 2))
        collection.found(sender("192.168.1.20", interface: 3))
        #expect(collection.decision(for: nameplate) == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
    }

    @Test func aRemovedServiceNoLongerCounts() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", interface: 2))
        collection.found(sender("10.0.0.7", interface: 3))
        collection.removed(DiscoveredServiceKey(instanceName: "AccountHandoff 427", interfaceIndex: 3))
        #expect(collection.decision(for: nameplate) == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
        collection.removed(DiscoveredServiceKey(instanceName: "AccountHandoff 427", interfaceIndex: 2))
        #expect(collection.decision(for: nameplate) == .notFound)
    }

    @Test func aNewerResolutionReplacesTheOlder() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", port: 40123))
        collection.found(sender("192.168.1.21", port: 40125))
        #expect(collection.decision(for: nameplate) == .connect(address: IPv4Address("192.168.1.21")!, port: 40125))
    }

    /// A service that is not a sender of this version never counts, so it can neither be
    /// connected to nor make the honest sender ambiguous; each is listed with its reason.
    @Test func servicesThatAreNotOursAreIgnoredWithTheirReason() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20"))
        collection.found(sender("192.168.1.30", interface: 3, name: "AccountHandoff 427 #2"))
        collection.found(sender("192.168.1.31", interface: 4, txt: ["v=4", "np=428"]))
        collection.found(sender("192.168.1.32", interface: 5, txt: ["v=5", "np=427"]))
        collection.found(sender("192.168.1.33", interface: 6, txt: ["v=4", "np=427", "extra=1"]))
        collection.found(sender("192.168.1.34", interface: 7, domain: "example.org"))
        collection.found(sender("192.168.1.35", port: 0, interface: 8))
        collection.found(DiscoveredService(instanceName: "AccountHandoff 427", domain: "local", interfaceIndex: 9, address: .other, port: 40123,
                                           txtEntries: [Array("v=4".utf8), Array("np=427".utf8)]))
        #expect(collection.decision(for: nameplate) == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
        // In the order of name, then interface: "AccountHandoff 427 #2" comes last.
        #expect(collection.ignored.map(\.reason) == [.nameplateMismatch, .otherVersion, .txtEntryCount(3), .otherDomain, .zeroPort, .notIPv4,
                                                      .instanceNameNotOurs])
    }

    @Test func theDomainMayCarryItsFinalDot() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", domain: "local."))
        #expect(collection.decision(for: nameplate) == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
    }

    /// Spec 11.8's rules: loopback and private ranges by default, a public address only when
    /// the person allowed it, and never 0.0.0.0, broadcast or multicast.
    @Test(arguments: [
        ("127.0.0.1", nil), ("10.1.2.3", nil), ("172.16.0.1", nil), ("172.31.255.254", nil), ("192.168.0.1", nil), ("169.254.3.4", nil),
        ("100.64.0.1", nil), ("203.0.113.9", DirectAddressPolicy.Refusal.publicAddress), ("172.32.0.1", .publicAddress),
        ("8.8.8.8", .publicAddress), ("0.0.0.0", .unspecified), ("255.255.255.255", .broadcast), ("224.0.0.251", .multicast),
        ("239.255.255.250", .multicast),
    ] as [(String, DirectAddressPolicy.Refusal?)])
    func theAddressRulesDecideBeforeAnyConnection(_ text: String, _ refusal: DirectAddressPolicy.Refusal?) {
        var collection = DiscoveryCollection()
        let address = IPv4Address(text)!
        collection.found(sender(text))
        let decision = collection.decision(for: nameplate)
        #expect(decision == (refusal.map { .refused(address: address, $0) } ?? .connect(address: address, port: 40123)))
        let allowed = collection.decision(for: nameplate, policy: DirectAddressPolicy(allowsPublicAddresses: true))
        let stillRefused = refusal == .publicAddress ? nil : refusal
        #expect(allowed == (stillRefused.map { .refused(address: address, $0) } ?? .connect(address: address, port: 40123)))
    }

    /// A device that shows the nameplate at a refused address still makes the nameplate
    /// ambiguous: it is another device showing the code, wherever it says it is.
    @Test func aRefusedAddressBesideTheSenderIsStillAmbiguous() {
        var collection = DiscoveryCollection()
        collection.found(sender("192.168.1.20", interface: 2))
        collection.found(sender("203.0.113.9", interface: 3))
        #expect(collection.decision(for: nameplate) == .ambiguous(endpoints: 2))
    }
}
