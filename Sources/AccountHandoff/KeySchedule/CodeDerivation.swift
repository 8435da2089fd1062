extension ShortCode {
    /// HKDF info label of the code material.
    package static let materialLabel = Array("AH4 code".utf8)

    /// The short code once both contributions are fixed (Spec 4.4):
    /// `codeMaterial = HKDF-Expand(HKDF-Extract(salt = TH1, IKM = codeKey | nonce), "AH4 code", 64)`.
    /// `codePRK` and the material live only in temporaries of `arena`.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when all 16 candidates are rejected.
    static func derive(codeKey: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, handshakeTranscript: SHA256.Digest,
                       arena: SessionArena) throws(HandoffError) -> ShortCode {
        try arena.withScratch(byteCount: HMACSHA256.byteCount) { (prk) throws(HandoffError) in
            HKDF.extract(salt: handshakeTranscript, codeKey, nonce, into: prk)
            return try arena.withScratch(byteCount: materialByteCount) { (material) throws(HandoffError) in
                HKDF.expand(pseudorandomKey: UnsafeRawBufferPointer(prk), info: materialLabel, into: material, arena: arena)
                guard let code = ShortCode(material: UnsafeRawBufferPointer(material)) else { throw .keyDerivationFailed }
                return code
            }
        }
    }

    /// ``derive(codeKey:nonce:handshakeTranscript:arena:)`` with the session's code key and
    /// the nonce kept in the arena.
    static func derive(codeKey: SessionSecret, nonce: SessionSecret, handshakeTranscript: SHA256.Digest,
                       arena: SessionArena) throws(HandoffError) -> ShortCode {
        try codeKey.withUnsafeBytes { (key) throws(HandoffError) in
            try nonce.withUnsafeBytes { (nonce) throws(HandoffError) in
                try derive(codeKey: key, nonce: nonce, handshakeTranscript: handshakeTranscript, arena: arena)
            }
        }
    }
}
