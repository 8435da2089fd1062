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
        let prk = try HKDF.extract(salt: handshakeTranscript, codeKey, nonce)
        defer { prk.wipe() }
        let material = try HKDF.expand(pseudorandomKey: prk, info: materialLabel, length: materialByteCount)
        defer { material.wipe() }
        guard let code = material.withUnsafeBytes({ ShortCode(material: $0) }) else { throw .keyDerivationFailed }
        return code
    }
}
