extension ShortCode {
    /// HKDF info label of the code material.
    package static let materialLabel = Array("AH3 code".utf8)

    /// The short code once both contributions are fixed (Spec 4.4):
    /// `codeMaterial = HKDF-Expand(HKDF-Extract(salt = TH1, IKM = codeKey | nonce), "AH3 code", 64)`.
    /// Intermediate values are wiped before returning.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when all 16 candidates are rejected;
    ///   ``HandoffError/secureMemoryUnavailable(_:)``.
    static func derive(codeKey: SecretBytes, nonce: SecretBytes, handshakeTranscript: SHA256.Digest) throws(HandoffError) -> ShortCode {
        // `codePRK` and the material live only in temporary guarded buffers.
        try SecretBytes.withTemporary(byteCount: HMACSHA256.byteCount) { (prk) throws(HandoffError) in
            codeKey.withUnsafeBytes { key in nonce.withUnsafeBytes { HKDF.extract(salt: handshakeTranscript, key, $0, into: prk) } }
            return try SecretBytes.withTemporary(byteCount: materialByteCount) { (material) throws(HandoffError) in
                try HKDF.expand(pseudorandomKey: UnsafeRawBufferPointer(prk), info: materialLabel, into: material)
                guard let code = ShortCode(material: UnsafeRawBufferPointer(material)) else { throw .keyDerivationFailed }
                return code
            }
        }
    }
}
