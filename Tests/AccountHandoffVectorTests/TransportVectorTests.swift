import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Replays `transport.json` (Spec 11) through the transport's real token codec, host packing,
/// key derivation and admission.
@Suite struct TransportVectorTests {
    static func objects(_ list: String) throws -> [[String: Any]] { try VectorFiles.load("transport.json").objects(list) }

    @Test func validTokensDecodeAndEncode() throws {
        for entry in try Self.objects("validTokens") {
            let decoded = try TCPRendezvous(token: RendezvousToken(bytes: entry.bytes("token")))
            let direct = entry["direct"] as? [String: Any]
            #expect(decoded.direct?.address.description == direct?["address"] as? String, "\(entry.name)")
            #expect(decoded.direct.map { Int($0.port) } == direct?["port"] as? Int, "\(entry.name)")
            let relay = entry["relay"] as? [String: Any]
            #expect(decoded.relay?.host.name == relay?["host"] as? String, "\(entry.name)")
            #expect(decoded.relay.map { Int($0.port) } == relay?["port"] as? Int, "\(entry.name)")
            #expect(decoded.token.bytes == (try entry.bytes("encoded")), "\(entry.name)")
        }
    }

    @Test func invalidTokensBreakTheirRule() throws {
        for entry in try Self.objects("invalidTokens") {
            var rule = "ok"
            do { _ = try TCPRendezvous(token: RendezvousToken(bytes: entry.bytes("token"))) } catch let error as RendezvousTokenError {
                rule = error.rule
            }
            #expect(rule == (try entry.string("rule")), "\(entry.name)")
        }
    }

    @Test func relayHostsPackAndUnpack() throws {
        for entry in try Self.objects("relayHosts") {
            let host = try RelayHost(entry.string("host"))
            #expect(host.packed == (try entry.bytes("packed")), "\(entry.name)")
            #expect(try RelayHost(packed: entry.bytes("packed")) == host, "\(entry.name)")
            // Spec 11.7: the address a dotted IPv4 host is used as; a name has none.
            #expect(IPv4Address(host.name)?.description == entry["address"] as? String, "\(entry.name)")
        }
        for entry in try Self.objects("invalidRelayHosts") {
            #expect(throws: RendezvousTokenError.invalidRelayHost, "\(entry.name)") { try RelayHost(entry.string("host")) }
        }
    }

    /// Spec 11.1 "Encoder refusals": each field as it is given, then the route, then the size.
    @Test func encoderRefusalsGiveTheirRule() throws {
        for entry in try Self.objects("encoderRefusals") {
            var rule = "ok"
            do {
                var endpoint: TCPRendezvous.Endpoint?, relay: TCPRendezvous.Relay?
                if let direct = entry["direct"] as? [String: Any] {
                    let address = try #require(IPv4Address(try direct.string("address")))
                    guard let made = TCPRendezvous.Endpoint(address: address, port: UInt16(try direct.int("port"))) else {
                        throw RendezvousTokenError.zeroPort
                    }
                    endpoint = made
                }
                if let fields = entry["relay"] as? [String: Any] {
                    let host = try RelayHost(try fields.string("host"))
                    guard let made = TCPRendezvous.Relay(host: host, port: UInt16(try fields.int("port"))) else { throw RendezvousTokenError.zeroPort }
                    relay = made
                }
                _ = try TCPRendezvous(direct: endpoint, relay: relay)
            } catch let error as RendezvousTokenError {
                rule = error.rule
            }
            #expect(rule == (try entry.string("rule")), "\(entry.name)")
            #expect((rule == "tooLong" ? "rendezvousTooLong" : "unsupportedRendezvous") == (try entry.string("error")), "\(entry.name)")
        }
    }

    @Test func transportKeysAndAdmission() throws {
        var keysByName: [String: TransportKeys] = [:]
        for entry in try Self.objects("transportKeys") {
            let keys = try TransportKeys(payload: SessionPayload(binary: entry.bytes("qrBinary")))
            #expect(keys.admissionKey.constantTimeEquals(try entry.bytes("admissionKey")), "\(entry.name)")
            #expect(keys.sessionHint == (try entry.bytes("sessionHint")), "\(entry.name)")
            #expect(keys.relayToken == (try entry.bytes("relayToken")), "\(entry.name)")
            #expect(keys.senderSide == (try entry.bytes("senderSide")), "\(entry.name)")
            keysByName[try entry.string("name")] = keys
        }
        for entry in try Self.objects("admission") {
            let keys = try #require(keysByName[try entry.string("keys")])
            let nonce = try entry.bytes("challengeNonce")
            #expect(Admission.challenge(keys: keys, nonce: nonce) == (try entry.bytes("challenge")), "\(entry.name)")
            #expect(Admission.answer(try entry.bytes("challenge"), keys: keys) == .answer(try entry.bytes("response")), "\(entry.name)")
            #expect(Admission.accepts(try entry.bytes("response"), keys: keys, nonce: nonce), "\(entry.name)")
        }
        for entry in try Self.objects("admissionChecks") {
            let keys = try #require(keysByName[try entry.string("keys")])
            if try entry.string("side") == "sender" {
                // Spec 11.4 A6: the stream's first 20 bytes decide; the rest is framing's (11.5).
                let received = try entry.bytes("received")
                let first = Array(received.prefix(Admission.responseByteCount))
                let nonce = try entry.bytes("challengeNonce")
                let accepted = first.count == Admission.responseByteCount && Admission.accepts(first, keys: keys, nonce: nonce)
                #expect(accepted == entry["accepted"] as? Bool, "\(entry.name)")
                if accepted {
                    #expect(Array(received.dropFirst(Admission.responseByteCount)) == (try entry.bytes("framing")), "\(entry.name)")
                }
            } else {
                let verdict = Admission.answer(try entry.bytes("challenge"), keys: keys)
                let expected: Admission.ChallengeVerdict = switch try entry.string("result") {
                case "answer": .answer(try entry.bytes("response"))
                case "renewedCode": .renewedCode
                default: .notAChallenge
                }
                #expect(verdict == expected, "\(entry.name)")
            }
        }
    }

    /// QR texts with a relay hint decode to their token; their relay token, sender side and
    /// handshake line are the transport's (Spec 11.3, 11.7).
    @Test func relayQRsAndHandshakes() throws {
        var senderSides: [String: [UInt8]] = [:]
        for entry in try Self.objects("relayQRs") {
            let payload = try SessionPayload(text: entry.string("text"))
            #expect(payload.binary == (try entry.bytes("qrBinary")), "\(entry.name)")
            let rendezvous = try TCPRendezvous(token: payload.rendezvous)
            let relay = try #require(entry["relay"] as? [String: Any], "\(entry.name)")
            #expect(rendezvous.relay?.host.name == relay["host"] as? String, "\(entry.name)")
            #expect(rendezvous.relay.map { Int($0.port) } == relay["port"] as? Int, "\(entry.name)")
            #expect(rendezvous.direct?.address.description == (entry["direct"] as? [String: Any])?["address"] as? String, "\(entry.name)")
            let keys = try TransportKeys(payload: payload)
            #expect(keys.relayToken == (try entry.bytes("relayToken")), "\(entry.name)")
            #expect(keys.senderSide == (try entry.bytes("senderSide")), "\(entry.name)")
            #expect(RelayHandshake.senderLine(keys) == Array(try entry.string("senderLine").utf8), "\(entry.name)")
            senderSides[try entry.string("name")] = keys.senderSide
            // The CLI's ceiling: at most version 7 at level M (pinned per level by QRDensityTests).
            #expect(payload.binary.count <= 71 + 32, "\(entry.name)")
        }
        for entry in try Self.objects("relayHandshakes") {
            let name = try entry.string("qr")
            let qr = try #require(try Self.objects("relayQRs").first { $0["name"] as? String == name })
            let side = try entry.bytes("side")
            #expect(side != senderSides[name], "\(entry.name)")
            let drawn = RelayHandshake.receiverSide(senderSide: try #require(senderSides[name]),
                                                    random: InsecureDeterministicRandom(seed: UInt64(try entry.int("seed"))))
            #expect(drawn == side, "\(entry.name)")
            #expect(RelayHandshake.line(relayToken: try qr.bytes("relayToken"), side: side) == Array(try entry.string("line").utf8), "\(entry.name)")
        }
    }
}
