import AccountHandoffDiscovery
import AccountHandoffTransport

/// `discovery.json`: the DNS-SD pieces of the typed way's transport (Spec 11.10), all from the
/// library's own code: advertisements of nameplates, TXT wire formats parsed, browsed services
/// judged ours (with their nameplate) or not ours, and the receiver's decision over a browse.
enum DiscoveryVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("DNS-SD of the typed way (Spec 11.10): the advertisement of a nameplate (service type, domain, instance name, TXT strings and their RFC 6763 wire format); TXT wire formats with the strings they hold or null when refused; browsed services with the nameplate they advertise when they are ours, or null; browses for a typed nameplate with the receiver's decision (connect to one IPv4 address and port, none, several)."),
            "advertisements": .array(try [0, 7, 427, 999].map(advertisement)),
            "txtWireFormats": .array(try txtWireFormats()),
            "services": .array(try services()),
            "browses": .array(try browses()),
        ])
    }

    private static func nameplate(_ value: Int) throws -> DiscoveryNameplate {
        guard let nameplate = DiscoveryNameplate(value) else { throw VectorGenerationError("nameplate \(value)") }
        return nameplate
    }

    private static func advertisement(_ value: Int) throws -> JSONValue {
        let nameplate = try nameplate(value)
        let wire = DiscoveryTXTRecord.wireFormat(for: nameplate)
        guard wire.count == 11, (try? DiscoveryTXTRecord.nameplate(inWireFormat: wire)) == nameplate else {
            throw VectorGenerationError("advertisement \(value)")
        }
        return .object([
            "nameplate": .string(nameplate.digits), "serviceType": .string(DiscoveryServiceNames.serviceType),
            "domain": .string(DiscoveryServiceNames.domain), "instanceName": .string(DiscoveryServiceNames.instanceName(for: nameplate)),
            "txt": .array(DiscoveryTXTRecord.entries(for: nameplate).map(JSONValue.hex)), "txtWire": .hex(wire),
        ])
    }

    // MARK: TXT wire formats (RFC 6763 6.1)

    private static func txtWireFormats() throws -> [JSONValue] {
        let valid = DiscoveryTXTRecord.wireFormat(for: try nameplate(427))
        let cases: [(String, [UInt8])] = [
            ("v=4, np=427", valid),
            ("the empty record", []),
            ("a length running past the end", [0x03] + Array("v=".utf8)),
            ("the last length running past the end", valid + [0x05, 0x61]),
            ("a lone length byte 1 at the end", valid + [0x01]),
            ("an empty string at the end", valid + [0x00]),
            ("an empty string first", [0x00] + valid),
            ("two empty strings", [0x00, 0x00]),
            ("the other order", Array(valid[4...]) + Array(valid[..<4])),
            ("a third string", valid + [0x03] + Array("x=1".utf8)),
            ("v=5, np=427", [0x03] + Array("v=5".utf8) + Array(valid[4...])),
        ]
        return cases.map { name, wire in
            var entry: [String: JSONValue] = ["name": .string(name), "wire": .hex(wire)]
            do throws(DiscoveryIgnoreReason) {
                entry["strings"] = .array(try DiscoveryTXTRecord.strings(inWireFormat: wire).map(JSONValue.hex))
                entry["nameplate"] = (try? DiscoveryTXTRecord.nameplate(inWireFormat: wire)).map { .string($0.digits) } ?? .null
            } catch {
                entry["strings"] = .null
                entry["nameplate"] = .null
            }
            return .object(entry)
        }
    }

    // MARK: Browsed services

    private static func service(_ instanceName: String = "AccountHandoff 427", domain: String = "local", interface: Int32 = 2,
                                address: String = "192.168.1.20", port: UInt16 = 40427, txt: [String] = ["v=4", "np=427"]) -> DiscoveredService {
        DiscoveredService(instanceName: instanceName, domain: domain, interfaceIndex: interface,
                          address: IPv4Address(address).map(DiscoveredAddress.ipv4) ?? .other, port: port,
                          txtEntries: txt.map { Array($0.utf8) })
    }

    private static func serviceJSON(_ service: DiscoveredService, addressText: String) -> [String: JSONValue] {
        let family: String
        switch service.address {
        case .ipv4: family = "ipv4"
        case .other: family = "ipv6"
        }
        return [
            "instanceName": .string(service.instanceName), "domain": .string(service.domain), "interface": .number(service.interfaceIndex),
            "family": .string(family), "address": .string(addressText), "port": .number(service.port),
            "txt": .array(service.txtEntries.map(JSONValue.hex)),
        ]
    }

    private static func services() throws -> [JSONValue] {
        let cases: [(String, String, DiscoveredService)] = [
            ("ours, 427", "192.168.1.20", service()),
            ("ours, 000", "192.168.1.20", service("AccountHandoff 000", txt: ["v=4", "np=000"])),
            ("ours, 999", "10.0.0.7", service("AccountHandoff 999", address: "10.0.0.7", txt: ["v=4", "np=999"])),
            ("domain local. with its root label", "192.168.1.20", service(domain: "local.")),
            ("domain example.com", "192.168.1.20", service(domain: "example.com")),
            ("domain LOCAL", "192.168.1.20", service(domain: "LOCAL")),
            ("two digits", "192.168.1.20", service("AccountHandoff 42", txt: ["v=4", "np=42"])),
            ("four digits", "192.168.1.20", service("AccountHandoff 4270", txt: ["v=4", "np=4270"])),
            ("two digits, TXT np=042", "192.168.1.20", service("AccountHandoff 42", txt: ["v=4", "np=042"])),
            ("four digits, TXT np=427", "192.168.1.20", service("AccountHandoff 0427", txt: ["v=4", "np=427"])),
            ("name 042, TXT np=42", "192.168.1.20", service("AccountHandoff 042", txt: ["v=4", "np=42"])),
            ("lower case", "192.168.1.20", service("accounthandoff 427")),
            ("two spaces", "192.168.1.20", service("AccountHandoff  427")),
            ("no space", "192.168.1.20", service("AccountHandoff427")),
            ("Arabic-Indic digits", "192.168.1.20", service("AccountHandoff \u{664}\u{662}\u{667}")),
            ("full-width digits", "192.168.1.20", service("AccountHandoff \u{FF14}\u{FF12}\u{FF17}")),
            ("a renamed conflict suffix", "192.168.1.20", service("AccountHandoff 427 (2)")),
            ("TXT in the other order", "192.168.1.20", service(txt: ["np=427", "v=4"])),
            ("TXT with a third string", "192.168.1.20", service(txt: ["v=4", "np=427", "x=1"])),
            ("TXT with an empty third string", "192.168.1.20", service(txt: ["v=4", "np=427", ""])),
            ("TXT v=4 alone", "192.168.1.20", service(txt: ["v=4"])),
            ("no TXT strings", "192.168.1.20", service(txt: [])),
            ("TXT v=5", "192.168.1.20", service(txt: ["v=5", "np=427"])),
            ("TXT V=4", "192.168.1.20", service(txt: ["V=4", "np=427"])),
            ("TXT np=42", "192.168.1.20", service(txt: ["v=4", "np=42"])),
            ("TXT np=0427", "192.168.1.20", service(txt: ["v=4", "np=0427"])),
            ("TXT np= 427 with a space", "192.168.1.20", service(txt: ["v=4", "np= 427"])),
            ("name 427, TXT np=428", "192.168.1.20", service(txt: ["v=4", "np=428"])),
            ("IPv6 address", "fe80::1", service(address: "fe80::1")),
            ("port 0", "192.168.1.20", service(port: 0)),
            ("port 65535", "192.168.1.20", service(port: 65535)),
        ]
        return cases.map { name, addressText, service in
            var entry = serviceJSON(service, addressText: addressText)
            entry["name"] = .string(name)
            entry["nameplate"] = (try? service.advertisedNameplate()).map { .string($0.digits) } ?? .null
            return .object(entry)
        }
    }

    // MARK: Browses and decisions

    private static func browses() throws -> [JSONValue] {
        let other = service("AccountHandoff 428", address: "192.168.1.30", txt: ["v=4", "np=428"])
        let cases: [(String, Int, [(String, DiscoveredService)])] = [
            ("one service", 427, [("192.168.1.20", service())]),
            ("nothing found", 427, []),
            ("only another nameplate", 427, [("192.168.1.30", other)]),
            ("ours beside another nameplate", 427, [("192.168.1.20", service()), ("192.168.1.30", other)]),
            ("ours beside services that are not ours", 427, [
                ("192.168.1.20", service()), ("192.168.1.21", service(interface: 3, address: "192.168.1.21", txt: ["v=5", "np=427"])),
                ("fe80::1", service(interface: 4, address: "fe80::1")),
                ("192.168.1.22", service("AccountHandoff 427 (2)", address: "192.168.1.22")),
            ]),
            ("only services that are not ours", 427, [
                ("192.168.1.21", service(address: "192.168.1.21", txt: ["v=4", "np=428"])),
                ("192.168.1.22", service(interface: 3, address: "192.168.1.22", port: 0)),
            ]),
            ("one address and port on two interfaces", 427, [
                ("192.168.1.20", service(interface: 2)), ("192.168.1.20", service(interface: 3)),
            ]),
            ("two addresses", 427, [
                ("192.168.1.20", service(interface: 2)), ("10.0.0.20", service(interface: 3, address: "10.0.0.20")),
            ]),
            ("one address, two ports", 427, [
                ("192.168.1.20", service(interface: 2)), ("192.168.1.20", service(interface: 3, port: 40428)),
            ]),
            ("two devices showing 427 under domain local and local.", 427, [
                ("192.168.1.20", service()), ("192.168.1.40", service(domain: "local.", interface: 3, address: "192.168.1.40")),
            ]),
            ("typed 000", 0, [("192.168.1.50", service("AccountHandoff 000", address: "192.168.1.50", port: 1, txt: ["v=4", "np=000"]))]),
        ]
        return try cases.map { name, typed, found in
            // A resolved service is known by its instance name and interface: each case holds each pair once.
            guard Set(found.map { $0.1.key }).count == found.count else { throw VectorGenerationError("browse \(name): a service twice") }
            let typedNameplate = try nameplate(typed)
            var collection = DiscoveryCollection()
            for (_, service) in found { collection.found(service) }
            var entry: [String: JSONValue] = [
                "name": .string(name), "typed": .string(typedNameplate.digits),
                "services": .array(found.map { .object(serviceJSON($1, addressText: $0)) }),
            ]
            switch collection.decision(for: typedNameplate) {
            case .connect(let address, let port):
                entry["decision"] = .string("connect")
                entry["address"] = .string(address.description)
                entry["port"] = .number(port)
            case .notFound: entry["decision"] = .string("none")
            case .ambiguous: entry["decision"] = .string("several")
            case .refused: throw VectorGenerationError("browse \(name): the address rules of 11.8 refused the address")
            }
            return .object(entry)
        }
    }
}
