import AccountHandoff
internal import CNSS
import Foundation

/// NSS's Secret Decoder Ring as Thunderbird uses it for `logins.json`: values encrypted with
/// the profile's SDR key (AES-256-CBC, or triple DES in older profiles), padded to whole
/// blocks, wrapped in an ``SDREnvelope`` and base64-encoded.
///
/// The C library's `PK11SDR_Decrypt` of Debian's NSS reads only the triple-DES form, so the
/// envelope is read here and the cipher itself runs in NSS with the profile's key. Decrypted
/// bytes go straight into guarded memory.
struct SecretDecoderRing {
    let database: ProfileKeyDatabase

    /// Why a value could not be decrypted or encrypted.
    enum Failure: Error {
        /// The value is not a base64 SDR envelope.
        case malformed
        /// No key of this database opens the value (another profile's key database).
        case noMatchingKey
        /// NSS failed; its error number.
        case nss(Int32)
        /// Guarded memory ran out.
        case memory
    }

    /// Decrypts a base64 SDR value into guarded memory.
    func decrypt(base64 text: String) throws(Failure) -> SecretBytes {
        guard let data = Data(base64Encoded: text), let envelope = try? SDREnvelope(der: Array(data)) else { throw .malformed }
        let type: CK_KEY_TYPE = envelope.algorithm == .aes256CBC ? CK_KEY_TYPE(CKK_AES) : CK_KEY_TYPE(CKK_DES3)
        let keys = database.keys(ofType: type, preferring: envelope.keyID)
        defer { keys.forEach { PK11_FreeSymKey($0) } }
        // Like NSS's own SDR: the key with the envelope's ID first, then any key of the type
        // (key IDs of old profiles were sometimes lost).
        for key in keys {
            if let plaintext = try decrypt(envelope, with: key) { return plaintext }
        }
        throw .noMatchingKey
    }

    /// Decrypts a base64 SDR value that is not secret (a user name) to text.
    func decryptText(base64 text: String) throws(Failure) -> String {
        let secret = try decrypt(base64: text)
        defer { secret.wipe() }
        return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the database has the default SDR key (AES).
    var hasDefaultKey: Bool {
        let keys = database.keys(ofType: CK_KEY_TYPE(CKK_AES), preferring: SDREnvelope.defaultKeyID)
        defer { keys.forEach { PK11_FreeSymKey($0) } }
        return keys.first.map { database.matches($0, SDREnvelope.defaultKeyID) } ?? false
    }

    /// Encrypts guarded bytes with the default SDR key (AES-256-CBC with a fresh IV), as
    /// Thunderbird does; the padded plaintext lives only in guarded memory.
    ///
    /// - Parameter createKey: make the key when the database has none (read-write only).
    func encrypt(_ plaintext: SecretBytes, createKey: Bool) throws(Failure) -> String {
        let keys = database.keys(ofType: CK_KEY_TYPE(CKK_AES), preferring: SDREnvelope.defaultKeyID)
        defer { keys.forEach { PK11_FreeSymKey($0) } }
        let key: OpaquePointer
        if let found = keys.first, database.matches(found, SDREnvelope.defaultKeyID) {
            key = found
        } else if createKey {
            do { key = try database.generateSDRKey() } catch { throw .nss(NSSRuntime.lastError) }
        } else {
            throw .noMatchingKey
        }
        defer { if !keys.contains(key) { PK11_FreeSymKey(key) } }
        let blockSize = SDREnvelope.Algorithm.aes256CBC.blockSize
        guard let iv = database.random(count: blockSize) else { throw .nss(NSSRuntime.lastError) }
        let padding = blockSize - plaintext.count % blockSize
        let padded: SecretBytes
        do { padded = try SecretBytes(zeroedCount: plaintext.count + padding) } catch { throw .memory }
        defer { padded.wipe() }
        padded.withUnsafeMutableBytes { target in
            plaintext.withUnsafeBytes { source in
                if let base = source.baseAddress, source.count > 0 { target.baseAddress!.copyMemory(from: base, byteCount: source.count) }
            }
            for index in plaintext.count..<target.count { target[index] = UInt8(padding) }
        }
        var ciphertext = [UInt8](repeating: 0, count: padded.count)
        let status: Result<Int, Failure> = padded.withUnsafeBytes { input in
            Self.run(CK_MECHANISM_TYPE(CKM_AES_CBC), CK_ATTRIBUTE_TYPE(CKA_ENCRYPT), key: key, iv: iv, input: input) { output in
                ciphertext.withUnsafeMutableBytes { output($0) }
            }
        }
        guard case .success(let written) = status, written == ciphertext.count else { throw .nss(NSSRuntime.lastError) }
        let envelope = SDREnvelope(keyID: SDREnvelope.defaultKeyID, algorithm: .aes256CBC, iv: iv, ciphertext: ciphertext)
        return Data(envelope.der).base64EncodedString()
    }

    /// The plaintext, or `nil` when this key does not open the envelope (wrong padding).
    private func decrypt(_ envelope: SDREnvelope, with key: OpaquePointer) throws(Failure) -> SecretBytes? {
        let mechanism: CK_MECHANISM_TYPE = envelope.algorithm == .aes256CBC ? CK_MECHANISM_TYPE(CKM_AES_CBC) : CK_MECHANISM_TYPE(CKM_DES3_CBC)
        let padded: SecretBytes
        do { padded = try SecretBytes(zeroedCount: envelope.ciphertext.count) } catch { throw .memory }
        defer { padded.wipe() }
        let status: Result<Int, Failure> = envelope.ciphertext.withUnsafeBytes { input in
            Self.run(mechanism, CK_ATTRIBUTE_TYPE(CKA_DECRYPT), key: key, iv: envelope.iv, input: input) { output in
                padded.withUnsafeMutableBytes { output($0) }
            }
        }
        guard case .success(let written) = status, written == padded.count else { return nil }
        // Padding as NSS's SDR writes it: 1 to blockSize bytes, each holding the count.
        let length: Int? = padded.withUnsafeBytes { bytes in
            let padding = Int(bytes[bytes.count - 1])
            guard padding >= 1, padding <= envelope.algorithm.blockSize, padding <= bytes.count else { return nil }
            guard bytes[(bytes.count - padding)...].allSatisfy({ Int($0) == padding }) else { return nil }
            return bytes.count - padding
        }
        guard let length else { return nil }
        do {
            return try padded.withUnsafeBytes { (bytes) throws(HandoffError) in
                try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[..<length]))
            }
        } catch {
            throw .memory
        }
    }

    /// One CBC pass of `input` through NSS into the buffer `output` gives; the byte count.
    private static func run(_ mechanism: CK_MECHANISM_TYPE, _ operation: CK_ATTRIBUTE_TYPE, key: OpaquePointer, iv: [UInt8],
                            input: UnsafeRawBufferPointer,
                            output: ((UnsafeMutableRawBufferPointer) -> Result<Int, Failure>) -> Result<Int, Failure>) -> Result<Int, Failure> {
        var ivBytes = iv
        return ivBytes.withUnsafeMutableBufferPointer { ivBuffer in
            var parameter = SECItem(type: siBuffer, data: ivBuffer.baseAddress, len: UInt32(ivBuffer.count))
            guard let context = PK11_CreateContextBySymKey(mechanism, operation, key, &parameter) else {
                return .failure(.nss(NSSRuntime.lastError))
            }
            defer { PK11_DestroyContext(context, PR_TRUE) }
            return output { buffer in
                var written: Int32 = 0
                let status = PK11_CipherOp(context, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), &written, Int32(buffer.count),
                                           input.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(input.count))
                guard status == SECSuccess else { return .failure(.nss(NSSRuntime.lastError)) }
                return .success(Int(written))
            }
        }
    }
}
