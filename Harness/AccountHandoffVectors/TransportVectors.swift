import AccountHandoff
import AccountHandoffTransport
import AccountHandoffTestSupport

/// `transport.json`: the reference transport of Spec 11: rendezvous tokens (11.1) valid and
/// invalid with the rule that refuses them, relay host packing (11.2), transport keys of
/// seeded QRs (11.3), admission challenges and responses (11.4), QR texts with a relay hint
/// and their relay handshakes (11.7).
enum TransportVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Reference transport (Spec 11): rendezvous tokens with their decoded fields, invalid tokens with the rule of 11.1/11.2 that refuses them (in decoding order), relay host packing, transport keys of seeded QRs (11.3), admission challenges and responses (11.4), admission checks on both sides, QR texts with a relay hint with their relay token, sender side and handshake line, and receivers' handshake lines (11.7)."),
            "validTokens": .array(try validTokens()),
            "invalidTokens": .array(try invalidTokens()),
            "relayHosts": .array(try relayHosts()),
            "invalidRelayHosts": .array(try invalidRelayHosts()),
            "encoderRefusals": .array(try encoderRefusals()),
            "transportKeys": .array(try transportKeys()),
            "admission": .array(try admission()),
            "admissionChecks": .array(try admissionChecks()),
            "relayQRs": .array(try relayQRs()),
            "relayHandshakes": .array(try relayHandshakes()),
        ])
    }

    // MARK: Tokens (11.1)

    private static func endpoint(_ address: String, _ port: UInt16) throws -> TCPRendezvous.Endpoint {
        guard let address = IPv4Address(address), let endpoint = TCPRendezvous.Endpoint(address: address, port: port) else {
            throw VectorGenerationError("endpoint \(address):\(port)")
        }
        return endpoint
    }

    private static func relay(_ host: String, _ port: UInt16) throws -> TCPRendezvous.Relay {
        guard let relay = TCPRendezvous.Relay(host: try RelayHost(host), port: port) else { throw VectorGenerationError("relay \(host)") }
        return relay
    }

    /// Hosts of exact lengths, made of labels the rules accept.
    static func host(length: Int, seed: String) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let bytes = VectorSupport.bytes(seed: VectorSupport.seed("transport/host/" + seed), count: length)
        var characters = bytes.map { alphabet[Int($0) % alphabet.count] }
        // A dot every 10 characters, never first or last: labels of 1...10 characters.
        for index in stride(from: 9, to: length - 1, by: 10) { characters[index] = "." }
        return String(characters)
    }

    /// The rendezvous tokens every other list uses, by name.
    static func rendezvousCases() throws -> [(String, TCPRendezvous)] {
        [
            ("loopback 127.0.0.1:41473 (the CLI's shape)", try TCPRendezvous(direct: endpoint("127.0.0.1", 41473))),
            ("IPv4 192.168.1.20:8080", try TCPRendezvous(direct: endpoint("192.168.1.20", 8080))),
            ("other loopback 127.0.0.2:1 (address present)", try TCPRendezvous(direct: endpoint("127.0.0.2", 1))),
            ("IPv4 10.0.0.7:65535", try TCPRendezvous(direct: endpoint("10.0.0.7", 65535))),
            ("relay only: relay.example.org:4001", try TCPRendezvous(direct: nil, relay: relay("relay.example.org", 4001))),
            ("relay only, dotted IPv4 host 192.0.2.7:4001", try TCPRendezvous(direct: nil, relay: relay("192.0.2.7", 4001))),
            ("loopback and relay transit.magic-wormhole.io:4001",
             try TCPRendezvous(direct: endpoint("127.0.0.1", 41473), relay: relay("transit.magic-wormhole.io", 4001))),
            ("IPv4 and a 30-character relay host",
             try TCPRendezvous(direct: endpoint("192.168.1.20", 8080), relay: relay(host(length: 30, seed: "30"), 4001))),
            ("IPv4 and a 33-character relay host (31 bytes: the longest beside an IPv4 address)",
             try TCPRendezvous(direct: endpoint("172.16.5.9", 50000), relay: relay(host(length: 33, seed: "33"), 443))),
            ("loopback and a 39-character relay host (31 bytes: the longest beside a loopback port)",
             try TCPRendezvous(direct: endpoint("127.0.0.1", 50000), relay: relay(host(length: 39, seed: "39"), 443))),
            ("relay only, the longest host: 42 characters (31 bytes)", try TCPRendezvous(direct: nil, relay: relay(host(length: 42, seed: "42"), 1))),
        ]
    }

    static func fields(_ rendezvous: TCPRendezvous) -> [String: JSONValue] {
        [
            "direct": rendezvous.direct.map { .object(["address": .string($0.address.description), "port": .number($0.port)]) } ?? .null,
            "relay": rendezvous.relay.map {
                .object(["host": .string($0.host.name), "port": .number($0.port), "packedHost": .hex($0.host.packed)])
            } ?? .null,
        ]
    }

    private static func validTokens() throws -> [JSONValue] {
        var cases = try rendezvousCases().map { ($0.0, $0.1.token.bytes, $0.1) }
        // A decoder also takes 127.0.0.1 written out (flag 0x02); an encoder leaves it out.
        let written = [0x03, 127, 0, 0, 1, 0xA2, 0x01] as [UInt8]
        cases.append(("127.0.0.1 written out (an encoder leaves it out)", written,
                      try TCPRendezvous(token: RendezvousToken(bytes: written))))
        return try cases.map { name, bytes, rendezvous in
            let decoded = try TCPRendezvous(token: RendezvousToken(bytes: bytes))
            guard decoded == rendezvous, bytes.count <= 32 else { throw VectorGenerationError("token \(name) does not round-trip") }
            if name.contains("31 bytes"), bytes.count != 31 { throw VectorGenerationError("\(name): \(bytes.count) bytes") }
            var entry = fields(decoded)
            entry["name"] = .string(name)
            entry["token"] = .hex(bytes)
            entry["encoded"] = .hex(decoded.token.bytes)
            return .object(entry)
        }
    }

    private static func invalidTokens() throws -> [JSONValue] {
        let ab = try RelayHost("ab").packed  // a, b, pad
        let abc = try RelayHost("abc").packed
        func group(_ s0: Int, _ s1: Int, _ s2: Int) -> [UInt8] {
            let value = s0 * 1521 + s1 * 39 + s2
            return [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        func packedSymbols(_ text: String) -> [UInt8] {
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-.".utf8)
            var symbols = text.utf8.map { alphabet.firstIndex(of: $0)! + 1 }
            while symbols.count % 3 != 0 { symbols.append(0) }
            return stride(from: 0, to: symbols.count, by: 3).flatMap { group(symbols[$0], symbols[$0 + 1], symbols[$0 + 2]) }
        }
        let relayPrefix: [UInt8] = [0x04, 0x0F, 0xA1]
        let cases: [(String, [UInt8], RendezvousTokenError)] = [
            ("empty", [], .empty),
            ("flag 0x08", [0x09, 0x1F, 0x90], .unknownFlags(0x09)),
            ("flag 0x80 (unknown flags before the address rule)", [0x82, 127, 0, 0, 1, 0x1F, 0x90], .unknownFlags(0x82)),
            ("flag 0x08 with an address and nothing after the flags (unknown flags before truncation)", [0x0B], .unknownFlags(0x0B)),
            ("flag 0x08 with a direct address and no port (unknown flags before truncation)", [0x09], .unknownFlags(0x09)),
            ("flag 0x08 with a direct port of 0 (unknown flags before the port)", [0x09, 0, 0], .unknownFlags(0x09)),
            ("flag 0x08 with a relay and no relay port (unknown flags before truncation)", [0x0C], .unknownFlags(0x0C)),
            ("flag 0x08 with a relay port of 0 (unknown flags before the port)", [0x0C, 0, 0] + ab, .unknownFlags(0x0C)),
            ("flag 0x08 with a relay host of one byte (unknown flags before the host)", [0x0C, 0x0F, 0xA1, 0x05], .unknownFlags(0x0C)),
            ("address flag without direct", [0x02, 127, 0, 0, 1, 0x1F, 0x90], .addressWithoutDirect),
            ("address flag without direct, with a relay", [0x06, 127, 0, 0, 1, 0x0F, 0xA1] + ab, .addressWithoutDirect),
            ("address flag without direct, with a relay and no relay port (the flags before truncation)", [0x06], .addressWithoutDirect),
            ("address flag without direct, with a relay port of 0 (the flags before the port)", [0x06, 0, 0] + ab, .addressWithoutDirect),
            ("no flags", [0x00], .noRoute),
            ("no flags and bytes", [0x00, 0x1F, 0x90], .noRoute),
            ("direct: no port", [0x01], .truncated),
            ("direct: half a port", [0x01, 0x1F], .truncated),
            ("IPv4: three address bytes", [0x03, 10, 0, 0], .truncated),
            ("IPv4: address, half a port", [0x03, 10, 0, 0, 7, 0x13], .truncated),
            ("relay: half a relay port", [0x04, 0x0F], .truncated),
            ("direct and relay: half a relay port", [0x05, 0x13, 0x88, 0x0F], .truncated),
            ("direct port 0", [0x01, 0, 0], .zeroPort),
            ("IPv4 port 0", [0x03, 10, 0, 0, 7, 0, 0], .zeroPort),
            ("relay port 0", [0x04, 0, 0] + ab, .zeroPort),
            ("direct port 0 before a truncated relay", [0x05, 0, 0, 0x0F], .zeroPort),
            ("direct port 0 and a byte after it (the port before the trailing bytes)", [0x01, 0, 0, 0x00], .zeroPort),
            ("relay port 0 and a relay host of one byte (the port before the host)", [0x04, 0, 0, 0x05], .zeroPort),
            ("one byte after a direct port", [0x01, 0x1F, 0x90, 0x00], .trailingBytes),
            ("two bytes after an IPv4 direct address", [0x03, 10, 0, 0, 7, 0x13, 0x88, 1, 2], .trailingBytes),
            ("relay host of one byte", relayPrefix + [0x05], .oddRelayHostLength),
            ("relay host of three bytes", relayPrefix + abc + [0x05], .oddRelayHostLength),
            ("relay host group 65535 and one byte (the byte count before the groups)", relayPrefix + [0xFF, 0xFF, 0x05], .oddRelayHostLength),
            ("relay host group 59319 (39^3)", relayPrefix + [0xE7, 0xB7], .relayHostGroupOutOfRange),
            ("relay host group 65535", relayPrefix + [0xFF, 0xFF], .relayHostGroupOutOfRange),
            ("relay host group out of range after a valid group", relayPrefix + abc + [0xE7, 0xB7], .relayHostGroupOutOfRange),
            ("relay host group 59319 (39, pad, pad) before abc: the value before the pads", relayPrefix + [0xE7, 0xB7] + abc,
             .relayHostGroupOutOfRange),
            ("relay host -ab then group 65535: the host rules last", relayPrefix + packedSymbols("-ab") + [0xFF, 0xFF],
             .relayHostGroupOutOfRange),
            ("relay host group of pads only (the only group)", relayPrefix + [0x00, 0x00], .relayHostPadGroup),
            ("relay host group of pads only (after abc)", relayPrefix + abc + [0x00, 0x00], .relayHostPadGroup),
            ("relay host group of pads only before abc (a group of pads before a misplaced pad)", relayPrefix + [0x00, 0x00] + abc,
             .relayHostPadGroup),
            ("relay host (pad, pad, a)", relayPrefix + group(0, 0, 1), .misplacedRelayHostPad),
            ("relay host (a, pad, c)", relayPrefix + group(1, 0, 3), .misplacedRelayHostPad),
            ("relay host (a, b, pad) then (c, c, c): a pad before the last group", relayPrefix + ab + group(3, 3, 3), .misplacedRelayHostPad),
            ("relay host (a, b, pad) then group 65535: group by group", relayPrefix + ab + [0xFF, 0xFF], .misplacedRelayHostPad),
            ("relay host group of pads and one byte (the byte count before the pads)", relayPrefix + [0x00, 0x00, 0x05], .oddRelayHostLength),
            ("relay host (pad, pad, a) and one byte (the byte count before a misplaced pad)", relayPrefix + group(0, 0, 1) + [0x05],
             .oddRelayHostLength),
            ("relay host group of pads, group 65535 and one byte (the byte count before a later group)", relayPrefix + [0, 0, 0xFF, 0xFF, 0x05],
             .oddRelayHostLength),
            ("relay host group 65535, a group of pads and one byte (the byte count first)", relayPrefix + [0xFF, 0xFF, 0, 0, 0x05],
             .oddRelayHostLength),
            ("relay host group 65535, (a, pad, c), abc and one byte (the byte count first)",
             relayPrefix + [0xFF, 0xFF] + group(1, 0, 3) + abc + [0x05], .oddRelayHostLength),
            ("relay host group 65535 then a group of pads: group by group", relayPrefix + [0xFF, 0xFF, 0x00, 0x00], .relayHostGroupOutOfRange),
            ("relay host group 65535 then (a, pad, c) and abc: group by group", relayPrefix + [0xFF, 0xFF] + group(1, 0, 3) + abc,
             .relayHostGroupOutOfRange),
            ("relay host group of pads then group 65535: group by group", relayPrefix + [0x00, 0x00, 0xFF, 0xFF], .relayHostPadGroup),
            ("relay host group of pads then (a, pad, c) and abc: group by group", relayPrefix + [0x00, 0x00] + group(1, 0, 3) + abc,
             .relayHostPadGroup),
            ("relay host (a, pad, c) then a group of pads: group by group", relayPrefix + group(1, 0, 3) + [0x00, 0x00], .misplacedRelayHostPad),
            ("relay host (pad, -, a): the misplaced pad before the host rules", relayPrefix + group(0, 37, 1), .misplacedRelayHostPad),
            ("relay host without bytes", relayPrefix, .invalidRelayHost),
            ("relay host -ab (label starts with a hyphen)", relayPrefix + packedSymbols("-ab"), .invalidRelayHost),
            ("relay host ab- (label ends with a hyphen)", relayPrefix + packedSymbols("ab-"), .invalidRelayHost),
            ("relay host a..b (empty label)", relayPrefix + packedSymbols("a..b"), .invalidRelayHost),
            ("relay host .ab (leading dot)", relayPrefix + packedSymbols(".ab"), .invalidRelayHost),
            ("relay host ab. (trailing dot)", relayPrefix + packedSymbols("ab."), .invalidRelayHost),
            ("relay host ... (group 59318: dots only)", relayPrefix + [0xE7, 0xB6], .invalidRelayHost),
        ]
        return try cases.map { name, bytes, expected in
            do {
                _ = try TCPRendezvous(token: RendezvousToken(bytes: bytes))
                throw VectorGenerationError("token \(name) accepted, meant \(expected.rule)")
            } catch let error as RendezvousTokenError {
                guard error == expected else { throw VectorGenerationError("token \(name): \(error.rule), meant \(expected.rule)") }
            }
            return .object(["name": .string(name), "token": .hex(bytes), "rule": .string(expected.rule)])
        }
    }

    // MARK: Relay hosts (11.2)

    private static func relayHosts() throws -> [JSONValue] {
        let names = ["a", "ab", "abc", "abcd", "z.9", "relay.example.org", "x-1.y-2.z", "192.0.2.7", "transit.magic-wormhole.io",
                     "0", "9-9", host(length: 42, seed: "42"), "0.0.0.0", "255.255.255.255", "999.1.1.1", "10.077.0.1", "1.2.3",
                     "1.2.3.4.5", "256.0.0.1"]
        return try names.map { name in
            let host = try RelayHost(name)
            let packed = host.packed
            guard try RelayHost(packed: packed) == host, packed.count == (name.utf8.count + 2) / 3 * 2 else {
                throw VectorGenerationError("relay host \(name) does not round-trip")
            }
            let groups = stride(from: 0, to: packed.count, by: 2).map { Int(packed[$0]) << 8 | Int(packed[$0 + 1]) }
            // Spec 11.7: a host that reads as a dotted IPv4 address is used as that address; any other is a name.
            let address = IPv4Address(name).map { JSONValue.string($0.description) } ?? .null
            return .object(["name": .string("\(name) (\(name.utf8.count) characters)"), "host": .string(name), "packed": .hex(packed),
                            "groups": .array(groups.map { .number($0) }), "address": address])
        }
    }

    private static func invalidRelayHosts() throws -> [JSONValue] {
        let names: [(String, String)] = [
            ("empty", ""), ("uppercase", "Relay.example.org"), ("underscore", "a_b"), ("space", "a b"), ("non-ASCII", "r\u{e9}lay"),
            ("trailing dot", "relay."), ("leading dot", ".relay"), ("leading hyphen", "-relay"), ("trailing hyphen", "relay-"),
            ("empty label", "a..b"), ("43 characters", host(length: 43, seed: "43")),
            ("a 64-character label", String(repeating: "a", count: 64)),
        ]
        return try names.map { name, text in
            do {
                _ = try RelayHost(text)
                throw VectorGenerationError("relay host \(name) accepted")
            } catch let error as RendezvousTokenError {
                guard error == .invalidRelayHost else { throw VectorGenerationError("relay host \(name): \(error.rule)") }
            }
            return .object(["name": .string(name), "host": .string(text), "utf8": .hex(Array(text.utf8)), "rule": .string("relayHost.invalid")])
        }
    }

    /// Fields an encoder refuses to make a token of (Spec 11.1 "Encoder refusals"), in its order:
    /// a port of 0 or an invalid relay host as the field is given, no route, then more than 32 bytes.
    private static func encoderRefusals() throws -> [JSONValue] {
        enum Field { case direct(String, UInt16), relay(String, UInt16) }
        let cases: [(String, [Field], String)] = [
            ("IPv4 and a 34-character relay host: 33 bytes", [.direct("172.16.5.9", 50000), .relay(host(length: 34, seed: "34"), 443)], "tooLong"),
            ("IPv4 and a 42-character relay host: 35 bytes", [.direct("192.168.1.20", 8080), .relay(host(length: 42, seed: "42"), 4001)], "tooLong"),
            ("127.0.0.1 and a 40-character relay host: 33 bytes", [.direct("127.0.0.1", 41473), .relay(host(length: 40, seed: "40"), 4001)], "tooLong"),
            ("IPv4 and a 43-character relay host: the host first", [.direct("192.168.1.20", 8080), .relay(host(length: 43, seed: "43"), 4001)],
             "relayHost.invalid"),
            ("a relay host with an uppercase letter", [.relay("Relay.example.org", 4001)], "relayHost.invalid"),
            ("direct port 0", [.direct("127.0.0.1", 0)], "zeroPort"),
            ("direct port 0 and an invalid relay host: the direct port first", [.direct("127.0.0.1", 0), .relay("-relay", 4001)], "zeroPort"),
            ("direct port 0 beside a 34-character relay host (33 bytes): the port first",
             [.direct("172.16.5.9", 0), .relay(host(length: 34, seed: "34"), 443)], "zeroPort"),
            ("an invalid relay host and relay port 0: the host first", [.relay("relay.", 0)], "relayHost.invalid"),
            ("relay port 0 beside an IPv4 address (33 bytes): the port first", [.direct("172.16.5.9", 50000), .relay(host(length: 34, seed: "34"), 0)],
             "zeroPort"),
            ("relay port 0", [.relay("relay.example.org", 0)], "zeroPort"),
            ("neither a direct address nor a relay", [], "noRoute"),
        ]
        return try cases.map { name, fields, expected in
            var rule = "ok"
            var direct: JSONValue = .null, relay: JSONValue = .null
            for field in fields {
                switch field {
                case .direct(let address, let port): direct = .object(["address": .string(address), "port": .number(port)])
                case .relay(let host, let port): relay = .object(["host": .string(host), "port": .number(port)])
                }
            }
            do {
                var endpoint: TCPRendezvous.Endpoint?, relayField: TCPRendezvous.Relay?
                for field in fields {
                    switch field {
                    case .direct(let address, let port):
                        guard let made = TCPRendezvous.Endpoint(address: IPv4Address(address)!, port: port) else { throw RendezvousTokenError.zeroPort }
                        endpoint = made
                    case .relay(let host, let port):
                        let relayHost = try RelayHost(host)
                        guard let made = TCPRendezvous.Relay(host: relayHost, port: port) else { throw RendezvousTokenError.zeroPort }
                        relayField = made
                    }
                }
                _ = try TCPRendezvous(direct: endpoint, relay: relayField)
            } catch let error as RendezvousTokenError {
                rule = error.rule
            }
            guard rule == expected else { throw VectorGenerationError("encoder refusal \(name): \(rule), meant \(expected)") }
            let error = rule == "tooLong" ? HandoffError.rendezvousTooLong(0).identifier : "unsupportedRendezvous"
            return .object(["name": .string(name), "direct": direct, "relay": relay, "rule": .string(rule), "error": .string(error)])
        }
    }

    // MARK: Transport keys (11.3)

    /// A QR for a rendezvous, its nonce and key drawn from the seed of `"transport/" + name`.
    static func payload(_ name: String, rendezvous: TCPRendezvous) throws -> SessionPayload {
        let (nonce, privateKey) = VectorSupport.senderDraws(seed: VectorSupport.seed("transport/" + name))
        return try VectorPrimitives.payload(expiry: PayloadVectors.baseExpiry, commitment: VectorPrimitives.commitment(nonce: nonce),
                                            senderPublicKey: VectorPrimitives.x25519PublicKey(privateKey: privateKey),
                                            rendezvous: rendezvous.token.bytes)
    }

    static let keyCases = ["loopback QR", "IPv4 and relay QR", "relay-only QR", "renewed loopback QR"]

    static func keyPayloads() throws -> [(String, SessionPayload)] {
        let tokens = try rendezvousCases()
        return try [
            (keyCases[0], payload(keyCases[0], rendezvous: tokens[0].1)),
            (keyCases[1], payload(keyCases[1], rendezvous: tokens[7].1)),
            (keyCases[2], payload(keyCases[2], rendezvous: tokens[4].1)),
            (keyCases[3], payload(keyCases[3], rendezvous: tokens[0].1)),
        ]
    }

    private static func transportKeys() throws -> [JSONValue] {
        try keyPayloads().map { name, payload in
            let keys = try TransportKeys(payload: payload)
            let th0 = VectorPrimitives.transcriptHash(payload)
            let prk = VectorPrimitives.hkdfExtract(salt: th0, inputKeyMaterial: [payload.commitment])
            func expand(_ label: String, _ count: Int) throws -> [UInt8] {
                try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii(label), length: count)
            }
            let admissionKey = try expand("AH4 admission", 32)
            guard admissionKey == keys.admissionKey.revealedBytes(), try expand("AH4 session hint", 8) == keys.sessionHint,
                  try expand("AH4 relay token", 32) == keys.relayToken, try expand("AH4 relay sender side", 8) == keys.senderSide else {
                throw VectorGenerationError("transport keys \(name) differ from Spec 11.3")
            }
            return .object(["name": .string(name), "qrBinary": .hex(payload.binary), "th0": .hex(th0), "commitment": .hex(payload.commitment),
                            "transportPRK": .hex(prk), "admissionKey": .hex(admissionKey), "sessionHint": .hex(keys.sessionHint),
                            "relayToken": .hex(keys.relayToken), "senderSide": .hex(keys.senderSide)])
        }
    }

    // MARK: Admission (11.4)

    static func nonce(_ name: String) -> [UInt8] {
        VectorSupport.bytes(seed: VectorSupport.seed("transport/challenge/" + name), count: TransportKeys.challengeNonceByteCount)
    }

    /// The response of Spec 11.4, from the formula.
    static func response(keys: TransportKeys, nonce: [UInt8]) throws -> [UInt8] {
        let tag = VectorPrimitives.hmac(key: keys.admissionKey.revealedBytes(),
                                            message: VectorSupport.ascii("AH4 admission") + keys.sessionHint + nonce)
        return VectorSupport.ascii("AH4B") + tag.prefix(16)
    }

    private static func admission() throws -> [JSONValue] {
        try keyPayloads().prefix(3).enumerated().map { index, named in
            let (name, payload) = named
            let keys = try TransportKeys(payload: payload)
            let nonce = nonce("\(index)")
            let challenge = Admission.challenge(keys: keys, nonce: nonce)
            let response = try response(keys: keys, nonce: nonce)
            guard challenge == VectorSupport.ascii("AH4A") + keys.sessionHint + nonce, challenge.count == 28,
                  Admission.answer(challenge, keys: keys) == .answer(response), Admission.accepts(response, keys: keys, nonce: nonce) else {
                throw VectorGenerationError("admission \(name) differs from Spec 11.4")
            }
            return .object(["name": .string("challenge and response, \(name)"), "keys": .string(name), "challengeNonce": .hex(nonce),
                            "challenge": .hex(challenge), "response": .hex(response)])
        }
    }

    private static func admissionChecks() throws -> [JSONValue] {
        let payloads = try keyPayloads()
        let keys = try TransportKeys(payload: payloads[0].1)
        let renewed = try TransportKeys(payload: payloads[3].1)
        let nonce = nonce("checks")
        let challenge = Admission.challenge(keys: keys, nonce: nonce)
        let right = try response(keys: keys, nonce: nonce)
        let staleNonce = Self.nonce("stale")
        let stale = try response(keys: keys, nonce: staleNonce)
        let otherKeys = try response(keys: renewed, nonce: nonce)
        let fullTag = VectorPrimitives.hmac(key: keys.admissionKey.revealedBytes(),
                                                 message: VectorSupport.ascii("AH4 admission") + keys.sessionHint + nonce)
        // What the receiver sent after the challenge, up to its close (Spec 11.4 A6: the sender
        // judges the stream's first 20 bytes; what follows them is framing, 11.5).
        let senderCases: [(String, [UInt8], Bool)] = [
            ("the right response", right, true),
            ("a response to another challenge of the same QR (replayed)", stale, false),
            ("a response with the renewed QR's keys", otherKeys, false),
            ("the right tag with magic AH4A", VectorSupport.ascii("AH4A") + right.dropFirst(4), false),
            ("one tag bit flipped", VectorSupport.flip(right, at: 19), false),
            ("19 bytes of the right response, then the connection closes", Array(right.prefix(19)), false),
            ("the right response and one byte more: admitted, the byte is framing's", right + [0], true),
            ("the magic and the whole 32-byte HMAC: its first 20 bytes are the right response, the other 16 are framing's",
             VectorSupport.ascii("AH4B") + fullTag, true),
            ("the right response and a framed hello in the same write (Spec 11.4 A5)", right + [0, 88] + Array(repeating: 0x11, count: 88), true),
        ]
        var out: [JSONValue] = try senderCases.map { name, received, accepted in
            let first = Array(received.prefix(Admission.responseByteCount))
            let admitted = first.count == Admission.responseByteCount && Admission.accepts(first, keys: keys, nonce: nonce)
            guard admitted == accepted else { throw VectorGenerationError("admission check \(name)") }
            var entry: [String: JSONValue] = ["name": .string("sender: " + name), "side": .string("sender"), "keys": .string(payloads[0].0),
                                              "challengeNonce": .hex(nonce), "received": .hex(received), "accepted": .bool(accepted)]
            if accepted { entry["framing"] = .hex(Array(received.dropFirst(Admission.responseByteCount))) }
            return .object(entry)
        }
        let receiverCases: [(String, [UInt8], TransportKeys, String)] = [
            ("a challenge of the scanned QR", challenge, keys, "answer"),
            ("a challenge of the renewed QR (another session hint): the code expired", Admission.challenge(keys: renewed, nonce: nonce),
             keys, "renewedCode"),
            ("magic AH4B", VectorSupport.ascii("AH4B") + challenge.dropFirst(4), keys, "notAChallenge"),
            ("an SSH greeting", Array("SSH-2.0-OpenSSH_9.2p1 Debia".utf8) + [0x6E], keys, "notAChallenge"),
        ]
        out += try receiverCases.map { name, challenge, keys, result in
            let verdict = Admission.answer(challenge, keys: keys)
            let expected: Admission.ChallengeVerdict = switch result {
            case "answer": .answer(try response(keys: keys, nonce: Array(challenge.suffix(16))))
            case "renewedCode": .renewedCode
            default: .notAChallenge
            }
            guard verdict == expected, challenge.count == 28 else { throw VectorGenerationError("admission check \(name)") }
            var entry: [String: JSONValue] = ["name": .string("receiver: " + name), "side": .string("receiver"), "keys": .string(payloads[0].0),
                                              "challenge": .hex(challenge), "result": .string(result)]
            if case .answer(let response) = verdict { entry["response"] = .hex(response) }
            return .object(entry)
        }
        return out
    }

    // MARK: Relay hints and handshakes (11.7)

    /// QRs whose token names a relay, the way a sender shows them.
    static func relayQRCases() throws -> [(String, TCPRendezvous)] {
        let thirty = host(length: 30, seed: "30")
        return [
            ("relay only, a 30-character host", try TCPRendezvous(direct: nil, relay: relay(thirty, 4001))),
            ("127.0.0.1 and a 30-character relay host (the CLI's shape)", try TCPRendezvous(direct: endpoint("127.0.0.1", 41473), relay: relay(thirty, 4001))),
            ("a LAN address and a 30-character relay host", try TCPRendezvous(direct: endpoint("192.168.1.20", 8080), relay: relay(thirty, 4001))),
            ("127.0.0.1 and transit.magic-wormhole.io:4001", try TCPRendezvous(direct: endpoint("127.0.0.1", 41473), relay: relay("transit.magic-wormhole.io", 4001))),
            ("relay only, dotted IPv4 host 10.77.0.1:4001", try TCPRendezvous(direct: nil, relay: relay("10.77.0.1", 4001))),
        ]
    }

    private static func relayQRs() throws -> [JSONValue] {
        try relayQRCases().map { name, rendezvous in
            let payload = try payload("relay QR: " + name, rendezvous: rendezvous)
            let keys = try TransportKeys(payload: payload)
            let decoded = try SessionPayload(text: payload.text)
            guard decoded.binary == payload.binary, try TCPRendezvous(token: decoded.rendezvous) == rendezvous else {
                throw VectorGenerationError("relay QR \(name) does not round-trip")
            }
            let line = RelayHandshake.senderLine(keys)
            guard line == VectorSupport.ascii("please relay " + Hex.encode(keys.relayToken) + " for side " + Hex.encode(keys.senderSide) + "\n") else {
                throw VectorGenerationError("relay QR \(name): the handshake differs from Spec 11.7")
            }
            var entry = fields(rendezvous)
            entry["name"] = .string(name)
            entry["text"] = .string(payload.text)
            entry["qrBinary"] = .hex(payload.binary)
            entry["relayToken"] = .hex(keys.relayToken)
            entry["senderSide"] = .hex(keys.senderSide)
            entry["senderLine"] = .string(String(decoding: line, as: UTF8.self))
            return .object(entry)
        }
    }

    /// Receivers' lines: a fresh side per connection (seeded here), never the sender's.
    private static func relayHandshakes() throws -> [JSONValue] {
        let (name, rendezvous) = try relayQRCases()[0]
        let keys = try TransportKeys(payload: payload("relay QR: " + name, rendezvous: rendezvous))
        return try (0..<3).map { index in
            let seed = VectorSupport.seed("transport/receiver side/\(index)")
            let side = RelayHandshake.receiverSide(senderSide: keys.senderSide, random: InsecureDeterministicRandom(seed: seed))
            let line = RelayHandshake.line(relayToken: keys.relayToken, side: side)
            // The side is the first 8 bytes of the seed's stream (it differs from the sender's side).
            guard side != keys.senderSide, side == VectorSupport.bytes(seed: seed, count: 8), line.count == 104 else {
                throw VectorGenerationError("receiver handshake \(index)")
            }
            return .object(["name": .string("receiver connection \(index + 1) for " + name), "qr": .string(name), "seed": .number(seed),
                            "side": .hex(side), "line": .string(String(decoding: line, as: UTF8.self))])
        }
    }
}
