/// An offer plaintext's contents (Spec 3.4): the account and the sending device's gate
/// declaration.
package struct OfferedAccount: Hashable, Sendable {
    /// The offered account.
    package let account: AccountMetadata
    /// Whether the sending device asks its person before the password is read (`senderGate`).
    package let senderGate: GateDeclaration
}

/// Encodes and decodes the offer plaintext (Spec 3.4): a length-prefixed record padded with zeros to a
/// multiple of ``blockByteCount`` so the ciphertext length reveals little about the account.
package enum AccountMetadataCodec {
    /// Padding granularity of the offer plaintext.
    package static let blockByteCount = 256

    /// `u16 recordLength | record | zero padding`, where the record is
    /// `linkID(16) | str(displayName) | str(email) | str(username) | str(host) | port(2) | security(1)
    /// | senderGate(1)` and `str(x)` is `u16 length | UTF-8 bytes`.
    package static func encode(_ account: AccountMetadata, senderGate: GateDeclaration) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedByteCount(account)) { buffer, initialized in
            encode(account, senderGate: senderGate, into: UnsafeMutableRawBufferPointer(buffer))
            initialized = buffer.count
        }
    }

    /// The length of ``encode(_:)``'s output for `account`: the record, its length prefix and
    /// the padding to the next multiple of ``blockByteCount``.
    static func encodedByteCount(_ account: AccountMetadata) -> Int {
        Padding.paddedByteCount(for: recordByteCount(account), blockByteCount: blockByteCount)
    }

    /// Writes ``encode(_:)``'s output into `output`, which holds exactly
    /// ``encodedByteCount(_:)`` bytes: the offer is encoded straight into the frame it is
    /// sealed in (Spec 3.4).
    static func encode(_ account: AccountMetadata, senderGate: GateDeclaration, into output: UnsafeMutableRawBufferPointer) {
        let recordLength = recordByteCount(account)
        precondition(output.count == Padding.paddedByteCount(for: recordLength, blockByteCount: blockByteCount),
                     "offer plaintext size")
        var writer = BufferWriter(output)
        writer.write(UInt16(recordLength))
        writer.write(account.linkID.bytes)
        func write(_ text: String.UTF8View) {
            writer.write(UInt16(text.count))
            writer.write(text)
        }
        write(account.displayName.utf8)
        write(account.emailAddress.utf8)
        write(account.username.utf8)
        write(account.imapHost.utf8)
        writer.write(account.imapPort)
        writer.write(account.imapSecurity.rawValue)
        writer.write(senderGate.byte)
        writer.writeZeros(output.count - writer.count)
    }

    /// `linkID(16) | 4 x (u16 length | UTF-8 bytes) | port(2) | security(1) | senderGate(1)`.
    private static func recordByteCount(_ account: AccountMetadata) -> Int {
        AccountLinkID.byteCount + 2 * 4 + account.displayName.utf8.count + account.emailAddress.utf8.count
            + account.username.utf8.count + account.imapHost.utf8.count + 2 + 1 + 1
    }

    /// Strictly decodes an offer plaintext (Spec 3.4 steps 1-3); every field is re-validated as in
    /// ``AccountMetadata`` (Spec 3.7), after the whole record has been parsed.
    package static func decode(_ plaintext: [UInt8]) throws(HandoffError) -> OfferedAccount {
        try plaintext.withUnsafeBytes { plaintext in Result { () throws(HandoffError) in try decode(plaintext) } }.get()
    }

    /// ``decode(_:)-([UInt8])`` read where the plaintext lies (in guarded memory), not copied.
    static func decode(_ plaintext: UnsafeRawBufferPointer) throws(HandoffError) -> OfferedAccount {
        var reader = ByteReader(try Padding.unpad(plaintext, blockByteCount: blockByteCount))
        let linkID = AccountLinkID(bytes: try reader.read(count: AccountLinkID.byteCount, .accountLinkID))!
        let displayName = try readString(&reader, .displayName)
        let email = try readString(&reader, .emailAddress)
        let username = try readString(&reader, .username)
        let host = try readString(&reader, .imapHost)
        let port = try reader.readUInt16(.imapPort)
        guard let security = IMAPSecurity(rawValue: try reader.readUInt8(.imapSecurity)) else {
            throw .malformed(.imapSecurity)
        }
        guard let senderGate = GateDeclaration(rawValue: try reader.readUInt8(.senderGate)) else {
            throw .malformed(.senderGate)
        }
        try reader.expectEnd()
        let account = try AccountMetadata(linkID: linkID, displayName: displayName, emailAddress: email,
                                          username: username, imapHost: host, imapPort: port, imapSecurity: security)
        return OfferedAccount(account: account, senderGate: senderGate)
    }

    private static func readString(_ reader: inout ByteReader<Slice<UnsafeRawBufferPointer>>, _ field: HandoffError.Field) throws(HandoffError) -> String {
        let length = Int(try reader.readUInt16(field))
        let raw = try reader.readSlice(count: length, field)
        // Strict UTF-8: the bytes must decode and re-encode to themselves.
        guard let text = String(validatingUTF8Bytes: raw) else { throw .malformed(field) }
        return text
    }
}

extension String {
    /// Decodes `bytes` as UTF-8 only if they are valid and re-encode to exactly the same bytes.
    init?<Bytes: Collection<UInt8>>(validatingUTF8Bytes bytes: Bytes) {
        // Decoding replaces each ill-formed sequence (overlong forms, surrogates, beyond
        // U+10FFFF, truncated) with U+FFFD, so the text re-encodes to exactly these bytes only
        // when they were valid UTF-8.
        let text = String(decoding: bytes, as: UTF8.self)
        // Both sides are contiguous in practice (a native string, a buffer): compare them whole.
        let same = text.utf8.withContiguousStorageIfAvailable { decoded in
            bytes.withContiguousStorageIfAvailable { original in decoded.elementsEqual(original) }
        } ?? nil
        guard same ?? text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}

/// Length-prefixed zero padding (Spec 3.4): `u16 n | content(n) | zeros` to the smallest
/// multiple of the block size that holds `2 + n` bytes.
package enum Padding {
    /// Total padded size for `contentByteCount` bytes.
    static func paddedByteCount(for contentByteCount: Int, blockByteCount: Int) -> Int {
        let needed = 2 + contentByteCount
        return (needed + blockByteCount - 1) / blockByteCount * blockByteCount
    }

    /// Pads public bytes.
    package static func pad(_ content: [UInt8], blockByteCount: Int) -> [UInt8] {
        let total = paddedByteCount(for: content.count, blockByteCount: blockByteCount)
        var writer = ByteWriter(capacity: total)
        writer.write(UInt16(content.count))
        writer.write(content)
        writer.writeZeros(total - 2 - content.count)
        return writer.bytes
    }

    /// Removes padding, checking the length prefix, the block multiple and that padding is zero;
    /// the content is returned as part of `padded`, not copied.
    package static func unpad<Bytes: RandomAccessCollection<UInt8>>(_ padded: Bytes, blockByteCount: Int) throws(HandoffError)
        -> Bytes.SubSequence where Bytes.Index == Int {
        var reader = ByteReader(padded)
        let length = Int(try reader.readUInt16(.padding))
        guard padded.count == paddedByteCount(for: length, blockByteCount: blockByteCount) else { throw .malformed(.padding) }
        let content = try reader.readSlice(count: length, .padding)
        guard reader.restIsAllZero else { throw .malformed(.padding) }
        return content
    }
}
