import Testing
@testable import AccountHandoff

/// The cacophony Noise vectors for `*_25519_ChaChaPoly_SHA256` (59 handshakes, 6 messages each),
/// replayed through the test-only Noise runner built on AccountHandoff's primitives: every
/// handshake and transport ciphertext must match byte for byte, the receiving side must
/// decrypt each message back to its payload, and both sides must end with the vector's
/// handshake hash.
@Suite struct NoiseCacophonyTests {
    private struct VectorFile: Decodable {
        let vectors: [Vector]
    }

    private struct Vector: Decodable {
        struct Message: Decodable {
            let payload: HexBytes
            let ciphertext: HexBytes
        }

        let protocolName: String
        let initPrologue: HexBytes
        let initEphemeral: HexBytes
        let initStatic: HexBytes?
        let initRemoteStatic: HexBytes?
        let initPsks: [HexBytes]?
        let respPrologue: HexBytes
        let respEphemeral: HexBytes?
        let respStatic: HexBytes?
        let respRemoteStatic: HexBytes?
        let respPsks: [HexBytes]?
        let handshakeHash: HexBytes
        let messages: [Message]
    }

    private static let fileName = "noise_cacophony_25519_ChaChaPoly_SHA256.json"
    private static let suffix = "_25519_ChaChaPoly_SHA256"

    private func party(_ vector: Vector, pattern: NoisePattern, isInitiator: Bool) throws -> NoiseHandshakeState {
        func secret(_ hex: HexBytes?) throws -> SecretBytes? { try hex.map { try SecretBytes(copying: $0.bytes) } }
        func publicKey(_ hex: HexBytes?) throws -> X25519PublicKey? {
            guard let hex else { return nil }
            let key: X25519PublicKey = try #require(X25519PublicKey(bytes: hex.bytes))
            return key
        }
        return try NoiseHandshakeState(
            protocolName: vector.protocolName, pattern: pattern, isInitiator: isInitiator,
            prologue: (isInitiator ? vector.initPrologue : vector.respPrologue).bytes,
            staticKey: try secret(isInitiator ? vector.initStatic : vector.respStatic),
            ephemeralKey: try secret(isInitiator ? vector.initEphemeral : vector.respEphemeral),
            remoteStatic: try publicKey(isInitiator ? vector.initRemoteStatic : vector.respRemoteStatic),
            preSharedKeys: ((isInitiator ? vector.initPsks : vector.respPsks) ?? []).map { try SecretBytes(copying: $0.bytes) })
    }

    /// Runs one vector; returns the number of messages checked.
    private func run(_ vector: Vector) throws -> Int {
        let patternName = String(vector.protocolName.dropFirst("Noise_".count).dropLast(Self.suffix.count))
        let pattern = try #require(NoisePattern(name: patternName), "unknown pattern \(vector.protocolName)")
        let initiator = try party(vector, pattern: pattern, isInitiator: true)
        let responder = try party(vector, pattern: pattern, isInitiator: false)
        var initiatorTransport: (send: NoiseCipherState, receive: NoiseCipherState)?
        var responderTransport: (send: NoiseCipherState, receive: NoiseCipherState)?
        for (index, message) in vector.messages.enumerated() {
            let initiatorSends = pattern.isOneWay || index.isMultiple(of: 2)
            let ciphertext: [UInt8]
            let received: [UInt8]
            if let sending = initiatorTransport, let receiving = responderTransport {
                let (send, receive) = initiatorSends ? (sending.send, receiving.receive) : (receiving.send, sending.receive)
                ciphertext = try send.encrypt(additionalData: [], plaintext: message.payload.bytes)
                received = try receive.decrypt(additionalData: [], ciphertext: ciphertext)
            } else {
                let (writer, reader) = initiatorSends ? (initiator, responder) : (responder, initiator)
                ciphertext = try writer.writeMessage(payload: message.payload.bytes)
                received = try reader.readMessage(ciphertext)
                if writer.isComplete {
                    #expect(reader.isComplete, "\(vector.protocolName)")
                    #expect(initiator.handshakeHash == vector.handshakeHash.bytes, "\(vector.protocolName) initiator h")
                    #expect(responder.handshakeHash == vector.handshakeHash.bytes, "\(vector.protocolName) responder h")
                    initiatorTransport = try initiator.transportCiphers()
                    responderTransport = try responder.transportCiphers()
                }
            }
            #expect(ciphertext == message.ciphertext.bytes, "\(vector.protocolName) message \(index)")
            #expect(received == message.payload.bytes, "\(vector.protocolName) message \(index) payload")
        }
        #expect(initiatorTransport != nil, "\(vector.protocolName) handshake never completed")
        return vector.messages.count
    }

    private func vectors() throws -> [Vector] {
        try ThirdPartyVectors.load(Self.fileName, as: VectorFile.self).vectors
    }

    @Test
    func nnHandshakeAndTransportMessagesMatch() throws {
        let vector = try #require(try vectors().first { $0.protocolName == "Noise_NN" + Self.suffix })
        #expect(try run(vector) == 6)
    }

    @Test
    func nnPsk0HandshakeAndTransportMessagesMatch() throws {
        let vector = try #require(try vectors().first { $0.protocolName == "Noise_NNpsk0" + Self.suffix })
        #expect(try run(vector) == 6)
    }

    /// All 59 patterns of the file: one-way, interactive, deferred and psk variants.
    @Test
    func everyPatternsHandshakeAndTransportMessagesMatch() throws {
        let all = try vectors()
        var handshakes = 0
        var messages = 0
        for vector in all {
            #expect(vector.protocolName.hasSuffix(Self.suffix), "\(vector.protocolName)")
            messages += try run(vector)
            handshakes += 1
        }
        #expect(handshakes == 59)
        #expect(messages == 59 * 6)
        #expect(all.filter { $0.protocolName.contains("psk") }.count == 21)
    }
}
