import AccountHandoffDiscovery
import AccountHandoffTransport
import Foundation
import Testing

/// Replays `Vectors/discovery.json` (Spec 11.10) through the discovery core: the advertisement
/// of each nameplate, TXT wire formats, which browsed services are ours, and the decision.
@Suite struct DiscoveryVectorTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("discovery.json") }

    /// The service a vector describes (an address that is not IPv4 is `.other`).
    private func service(_ entry: [String: Any]) throws -> DiscoveredService {
        let address: DiscoveredAddress
        if try entry.string("family") == "ipv4" {
            address = .ipv4(try #require(IPv4Address(entry.string("address")), "\(entry.name)"))
        } else {
            address = .other
        }
        let txt = try #require(entry["txt"] as? [String]).map { try #require(hexBytes($0)) }
        return DiscoveredService(instanceName: try entry.string("instanceName"), domain: try entry.string("domain"),
                                 interfaceIndex: Int32(try entry.int("interface")), address: address,
                                 port: UInt16(try entry.int("port")), txtEntries: txt)
    }

    @Test func advertisements() throws {
        let entries = try vectors.objects("advertisements")
        #expect(entries.count == 4)
        for entry in entries {
            let nameplate = try #require(DiscoveryNameplate(digits: entry.string("nameplate")))
            #expect(try DiscoveryServiceNames.serviceType == entry.string("serviceType"))
            #expect(try DiscoveryServiceNames.domain == entry.string("domain"))
            #expect(try DiscoveryServiceNames.instanceName(for: nameplate) == entry.string("instanceName"))
            let txt = try #require(entry["txt"] as? [String]).map { try #require(hexBytes($0)) }
            #expect(DiscoveryTXTRecord.entries(for: nameplate) == txt)
            #expect(try DiscoveryTXTRecord.wireFormat(for: nameplate) == entry.bytes("txtWire"))
        }
    }

    @Test func txtWireFormats() throws {
        let entries = try vectors.objects("txtWireFormats")
        #expect(entries.count >= 10)
        for entry in entries {
            let wire = try entry.bytes("wire")
            let strings = try? DiscoveryTXTRecord.strings(inWireFormat: wire)
            let expected = try (entry["strings"] as? [String])?.map { try #require(hexBytes($0)) }
            #expect(strings == expected, "\(entry.name)")
            let nameplate = try? DiscoveryTXTRecord.nameplate(inWireFormat: wire)
            #expect(nameplate?.digits == entry["nameplate"] as? String, "\(entry.name)")
        }
    }

    @Test func services() throws {
        let entries = try vectors.objects("services")
        #expect(entries.count >= 20)
        for entry in entries {
            let nameplate = try? service(entry).advertisedNameplate()
            #expect(nameplate?.digits == entry["nameplate"] as? String, "\(entry.name)")
        }
    }

    @Test func browses() throws {
        let entries = try vectors.objects("browses")
        #expect(entries.count >= 8)
        for entry in entries {
            var collection = DiscoveryCollection()
            for found in try entry.objects("services") { collection.found(try service(found)) }
            let typed = try #require(DiscoveryNameplate(digits: entry.string("typed")))
            switch (collection.decision(for: typed), try entry.string("decision")) {
            case (.connect(let address, let port), "connect"):
                #expect(try address.description == entry.string("address") && Int64(port) == entry.int("port"), "\(entry.name)")
            case (.notFound, "none"), (.ambiguous, "several"): break
            case (let decision, let expected): Issue.record("\(entry.name): \(decision), the vector says \(expected)")
            }
        }
    }
}
