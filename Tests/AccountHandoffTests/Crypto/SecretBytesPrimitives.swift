@testable import AccountHandoff

// The primitives on whole `SecretBytes`, for the known-answer, Wycheproof, Noise and HPKE tests:
// the library itself reads every secret where it lies (its arena or a `SecretBytes`) and hands
// the primitives buffers; these wrap the same calls, each output in a `SecretBytes` of its own.

extension ChaCha20Poly1305 {
    static func seal(key: SecretBytes, nonce: [UInt8], plaintext: SecretBytes, additionalData: [UInt8]) -> [UInt8] {
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        key.withUnsafeBytes { key in
            plaintext.withUnsafeBytes { plaintext in
                nonce.withUnsafeBytes { nonce in
                    additionalData.withUnsafeBytes { ad in
                        sealed.withUnsafeMutableBytes {
                            seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: ad, into: $0)
                        }
                    }
                }
            }
        }
        return sealed
    }

    static func open(key: SecretBytes, nonce: [UInt8], sealed: [UInt8], additionalData: [UInt8]) throws -> SecretBytes {
        guard sealed.count >= tagByteCount else { throw HandoffError.authenticationFailed }
        let opened = try SecretBytes(zeroedCount: sealed.count - tagByteCount)
        try key.withUnsafeBytes { key in
            try nonce.withUnsafeBytes { nonce in
                try sealed.withUnsafeBytes { sealed in
                    try additionalData.withUnsafeBytes { ad in
                        try opened.withUnsafeMutableBytes { (output) throws(HandoffError) in
                            try open(key: key, nonce: nonce, sealed: sealed, additionalData: ad, into: output)
                        }
                    }
                }
            }
        }
        return opened
    }
}

extension HKDF {
    static func extract(salt: [UInt8], inputKeyMaterial: [SecretBytes]) throws -> SecretBytes {
        let material = inputKeyMaterial.flatMap { $0.revealedBytes() }
        let prk = try SecretBytes(zeroedCount: HMACSHA256.byteCount)
        salt.withUnsafeBytes { salt in
            material.withUnsafeBytes { material in
                prk.withUnsafeMutableBytes { extract(salt: salt, inputKeyMaterial: [material], into: $0) }
            }
        }
        return prk
    }

    static func expand(pseudorandomKey: SecretBytes, info: [UInt8], length: Int) throws -> SecretBytes {
        guard length >= 0, length <= maximumOutputLength else { throw HandoffError.keyDerivationFailed }
        let arena = try SessionArena(byteCount: HMACSHA256.byteCount)
        let output = try SecretBytes(zeroedCount: length)
        pseudorandomKey.withUnsafeBytes { prk in
            output.withUnsafeMutableBytes { expand(pseudorandomKey: prk, info: info, into: $0, arena: arena) }
        }
        return output
    }
}

extension HMACSHA256 {
    static func keyed(_ key: SecretBytes) -> HMACSHA256 { key.withUnsafeBytes { HMACSHA256(keyBytes: $0) } }

    func update(_ secret: SecretBytes) { secret.withUnsafeBytes { update($0) } }

    func finalize() throws -> SecretBytes {
        let tag = try SecretBytes(zeroedCount: Self.byteCount)
        tag.withUnsafeMutableBytes { finalize(into: $0) }
        return tag
    }

    static func authenticate(key: SecretBytes, message: [UInt8]) throws -> SecretBytes {
        let mac = keyed(key)
        mac.update(message)
        return try mac.finalize()
    }
}

extension X25519 {
    static func publicKey(for privateKey: SecretBytes) -> X25519PublicKey { privateKey.withUnsafeBytes { publicKey(for: $0) } }

    static func sharedSecret(privateKey: SecretBytes, peer: X25519PublicKey) throws -> SecretBytes {
        let shared = try SecretBytes(zeroedCount: X25519PublicKey.byteCount)
        try privateKey.withUnsafeBytes { scalar in
            try peer.bytes.withUnsafeBytes { peer in
                try shared.withUnsafeMutableBytes { (output) throws(HandoffError) in
                    try sharedSecret(privateKey: scalar, peer: peer, into: output)
                }
            }
        }
        return shared
    }
}
