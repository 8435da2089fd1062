@testable import AccountHandoff

// A minimal Noise (revision 34) implementation for Noise_*_25519_ChaChaPoly_SHA256, written in
// the test target only to check AccountHandoff's primitives against the cacophony vectors:
// X25519 for DH, HMAC-SHA256 chaining for Noise's HKDF, ChaCha20-Poly1305 with nonce
// 4 zero bytes || 64-bit little-endian counter, SHA-256 for the hash. Not for production.

/// What can go wrong while running a vector through the test-only Noise runner.
enum NoiseRunnerError: Error, Equatable {
    /// The vector lacks a key the pattern needs (a broken vector file).
    case missingKey(String)
    /// A handshake message is shorter than its tokens require.
    case truncatedMessage
}

/// Noise's CipherState: a key (or none) and a 64-bit nonce counter.
final class NoiseCipherState {
    private var key: SecretBytes?
    private var counter: UInt64 = 0

    init(key: SecretBytes? = nil) { self.key = key }

    var hasKey: Bool { key != nil }

    /// InitializeKey: a new key and a nonce counter reset to zero.
    func initializeKey(_ newKey: SecretBytes) {
        key = newKey
        counter = 0
    }

    /// The ChaChaPoly nonce: 32 zero bits, then the counter as 64-bit little endian.
    private var nonce: [UInt8] {
        [0, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: counter >> (8 * $0)) }
    }

    /// EncryptWithAd; without a key the plaintext passes through unchanged.
    func encrypt(additionalData: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        guard let key else { return plaintext }
        let sealed = ChaCha20Poly1305.seal(key: key, nonce: nonce, plaintext: try SecretBytes(copying: plaintext),
                                           additionalData: additionalData)
        counter += 1
        return sealed
    }

    /// DecryptWithAd; without a key the ciphertext passes through unchanged.
    func decrypt(additionalData: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        guard let key else { return ciphertext }
        let opened = try ChaCha20Poly1305.open(key: key, nonce: nonce, sealed: ciphertext, additionalData: additionalData)
        counter += 1
        return opened.revealedBytes()
    }
}

/// Noise's SymmetricState: chaining key, handshake hash and the current CipherState.
final class NoiseSymmetricState {
    private var chainingKey: SecretBytes
    /// The handshake hash `h`.
    private(set) var handshakeHash: [UInt8]
    private let cipher = NoiseCipherState()

    /// InitializeSymmetric: `h` is the name zero-padded to 32 bytes, or its hash when longer.
    init(protocolName: String) throws {
        let name = Array(protocolName.utf8)
        handshakeHash = name.count <= SHA256.byteCount
            ? name + [UInt8](repeating: 0, count: SHA256.byteCount - name.count)
            : SHA256.hash(name)
        chainingKey = try SecretBytes(copying: handshakeHash)
    }

    var hasKey: Bool { cipher.hasKey }

    /// Noise's HKDF(chaining_key, input_key_material, num_outputs), built from HMAC-SHA256 alone.
    static func hkdf(chainingKey: SecretBytes, inputKeyMaterial: SecretBytes, outputs: Int) throws -> [SecretBytes] {
        let temporaryKey = HMACSHA256.keyed(chainingKey)
        temporaryKey.update(inputKeyMaterial)
        let tempKey = try temporaryKey.finalize()
        var results: [SecretBytes] = []
        for index in 1...outputs {
            let mac = HMACSHA256.keyed(tempKey)
            if let previous = results.last { mac.update(previous) }
            mac.update([UInt8(index)])
            results.append(try mac.finalize())
        }
        return results
    }

    func mixHash(_ data: [UInt8]) {
        handshakeHash = SHA256.hash(handshakeHash, data)
    }

    func mixKey(_ inputKeyMaterial: SecretBytes) throws {
        let outputs = try Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 2)
        chainingKey = outputs[0]
        cipher.initializeKey(outputs[1])
    }

    func mixKeyAndHash(_ inputKeyMaterial: SecretBytes) throws {
        let outputs = try Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 3)
        chainingKey = outputs[0]
        mixHash(outputs[1].revealedBytes())
        cipher.initializeKey(outputs[2])
    }

    func encryptAndHash(_ plaintext: [UInt8]) throws -> [UInt8] {
        let ciphertext = try cipher.encrypt(additionalData: handshakeHash, plaintext: plaintext)
        mixHash(ciphertext)
        return ciphertext
    }

    func decryptAndHash(_ ciphertext: [UInt8]) throws -> [UInt8] {
        let plaintext = try cipher.decrypt(additionalData: handshakeHash, ciphertext: ciphertext)
        mixHash(ciphertext)
        return plaintext
    }

    /// Split: the initiator-to-responder and responder-to-initiator transport ciphers.
    func split() throws -> (initiatorToResponder: NoiseCipherState, responderToInitiator: NoiseCipherState) {
        let outputs = try Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: try SecretBytes(copying: []), outputs: 2)
        return (NoiseCipherState(key: outputs[0]), NoiseCipherState(key: outputs[1]))
    }
}

/// Noise's HandshakeState for one party, with fixed (vector-given) ephemeral keys.
final class NoiseHandshakeState {
    private let pattern: NoisePattern
    private let isInitiator: Bool
    private let symmetric: NoiseSymmetricState
    private let staticKey: SecretBytes?
    private let ephemeralKey: SecretBytes?
    private var remoteStatic: X25519PublicKey?
    private var remoteEphemeral: X25519PublicKey?
    private var preSharedKeys: [SecretBytes]
    private var nextMessage = 0

    /// Initialize: protocol name, prologue, then the pre-message public keys (initiator's first).
    init(protocolName: String, pattern: NoisePattern, isInitiator: Bool, prologue: [UInt8],
         staticKey: SecretBytes?, ephemeralKey: SecretBytes?, remoteStatic: X25519PublicKey?,
         preSharedKeys: [SecretBytes]) throws {
        self.pattern = pattern
        self.isInitiator = isInitiator
        self.symmetric = try NoiseSymmetricState(protocolName: protocolName)
        self.staticKey = staticKey
        self.ephemeralKey = ephemeralKey
        self.remoteStatic = remoteStatic
        self.preSharedKeys = preSharedKeys
        symmetric.mixHash(prologue)
        for (tokens, isMine) in [(pattern.initiatorPreMessage, isInitiator), (pattern.responderPreMessage, !isInitiator)] {
            for token in tokens {
                guard token == .s else { throw NoiseRunnerError.missingKey("pre-message \(token) is not supported") }
                symmetric.mixHash(isMine ? try publicKey(of: staticKey, "s").bytes : try require(self.remoteStatic, "rs").bytes)
            }
        }
    }

    /// Whether every handshake message has been written or read.
    var isComplete: Bool { nextMessage == pattern.messages.count }

    /// The handshake hash `h` (the channel binding value once complete).
    var handshakeHash: [UInt8] { symmetric.handshakeHash }

    /// The transport ciphers after the handshake: (send, receive) for this party.
    func transportCiphers() throws -> (send: NoiseCipherState, receive: NoiseCipherState) {
        let ciphers = try symmetric.split()
        return isInitiator
            ? (ciphers.initiatorToResponder, ciphers.responderToInitiator)
            : (ciphers.responderToInitiator, ciphers.initiatorToResponder)
    }

    /// WriteMessage: process the next message pattern as sender, then encrypt the payload.
    func writeMessage(payload: [UInt8]) throws -> [UInt8] {
        var message: [UInt8] = []
        for token in pattern.messages[nextMessage] {
            switch token {
            case .e:
                let ephemeralPublic = try publicKey(of: ephemeralKey, "e").bytes
                message += ephemeralPublic
                try mixEphemeral(ephemeralPublic)
            case .s:
                message += try symmetric.encryptAndHash(try publicKey(of: staticKey, "s").bytes)
            case .ee, .es, .se, .ss:
                try symmetric.mixKey(try diffieHellman(token))
            case .psk:
                try symmetric.mixKeyAndHash(try takePreSharedKey())
            }
        }
        message += try symmetric.encryptAndHash(payload)
        nextMessage += 1
        return message
    }

    /// ReadMessage: process the next message pattern as receiver, then decrypt the payload.
    func readMessage(_ message: [UInt8]) throws -> [UInt8] {
        var rest = message[...]
        func take(_ count: Int) throws -> [UInt8] {
            guard rest.count >= count else { throw NoiseRunnerError.truncatedMessage }
            defer { rest = rest.dropFirst(count) }
            return Array(rest.prefix(count))
        }
        for token in pattern.messages[nextMessage] {
            switch token {
            case .e:
                let ephemeralPublic = try take(X25519PublicKey.byteCount)
                remoteEphemeral = X25519PublicKey(bytes: ephemeralPublic)
                try mixEphemeral(ephemeralPublic)
            case .s:
                let encrypted = try take(X25519PublicKey.byteCount + (symmetric.hasKey ? ChaCha20Poly1305.tagByteCount : 0))
                remoteStatic = X25519PublicKey(bytes: try symmetric.decryptAndHash(encrypted))
            case .ee, .es, .se, .ss:
                try symmetric.mixKey(try diffieHellman(token))
            case .psk:
                try symmetric.mixKeyAndHash(try takePreSharedKey())
            }
        }
        let payload = try symmetric.decryptAndHash(Array(rest))
        nextMessage += 1
        return payload
    }

    /// `e`: MixHash(e.public), plus MixKey(e.public) in handshakes with a psk token.
    private func mixEphemeral(_ ephemeralPublic: [UInt8]) throws {
        symmetric.mixHash(ephemeralPublic)
        if pattern.usesPreSharedKeys { try symmetric.mixKey(SecretBytes(copying: ephemeralPublic)) }
    }

    /// The DH for `ee`, `es`, `se`, `ss`; the first letter is the initiator's key, the second the responder's.
    private func diffieHellman(_ token: NoisePattern.Token) throws -> SecretBytes {
        let (initiatorUsesEphemeral, responderUsesEphemeral): (Bool, Bool) = switch token {
        case .ee: (true, true)
        case .es: (true, false)
        case .se: (false, true)
        default: (false, false)
        }
        let (mineIsEphemeral, theirsIsEphemeral) = isInitiator
            ? (initiatorUsesEphemeral, responderUsesEphemeral)
            : (responderUsesEphemeral, initiatorUsesEphemeral)
        let privateKey = try require(mineIsEphemeral ? ephemeralKey : staticKey, mineIsEphemeral ? "e" : "s")
        let peer = try require(theirsIsEphemeral ? remoteEphemeral : remoteStatic, theirsIsEphemeral ? "re" : "rs")
        return try X25519.sharedSecret(privateKey: privateKey, peer: peer)
    }

    private func takePreSharedKey() throws -> SecretBytes {
        guard !preSharedKeys.isEmpty else { throw NoiseRunnerError.missingKey("psk") }
        return preSharedKeys.removeFirst()
    }

    private func publicKey(of privateKey: SecretBytes?, _ name: String) throws -> X25519PublicKey {
        X25519.publicKey(for: try require(privateKey, name))
    }

    private func require<Value>(_ value: Value?, _ name: String) throws -> Value {
        guard let value else { throw NoiseRunnerError.missingKey(name) }
        return value
    }
}
