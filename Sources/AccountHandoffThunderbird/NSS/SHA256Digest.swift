internal import CNSS

/// SHA-256 from NSS, for names that are not secret (a derived link ID).
enum SHA256Digest {
    /// The 32-byte digest of `bytes`; `nil` when NSS cannot run.
    static func of(_ bytes: [UInt8]) -> [UInt8]? {
        guard NSSRuntime.start() == nil else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        let status = digest.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { input in
                PK11_HashBuf(SEC_OID_SHA256, output.baseAddress, input.baseAddress, Int32(input.count))
            }
        }
        return status == SECSuccess ? digest : nil
    }
}
