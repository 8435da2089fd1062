@_spi(Vectors) import AccountHandoff

/// `plaintexts.json`: offer (account metadata) and credential plaintexts with their padding,
/// and invalid plaintexts with their errors (Spec 3.4-3.6).
enum PlaintextVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Encrypted-frame plaintexts (Spec 3.4-3.6): account metadata records padded to 256-byte blocks, credential plaintexts padded to 1024 bytes, and invalid plaintexts with the error of the first failing check."),
            "offer": .array(try offers()),
            "invalidOffer": .array(try invalidOffers()),
            "credential": .array(try credentials()),
            "invalidCredential": .array(try invalidCredentials()),
        ])
    }

    static func linkID(_ name: String) -> AccountLinkID {
        AccountLinkID(bytes: VectorSupport.bytes(seed: VectorSupport.seed("linkID/" + name), count: 16))!
    }

    static func metadata(_ name: String, displayName: String, email: String, username: String, host: String,
                         port: UInt16 = 993, security: IMAPSecurity = .tls) throws -> AccountMetadata {
        try AccountMetadata(linkID: linkID(name), displayName: displayName, emailAddress: email, username: username,
                            imapHost: host, imapPort: port, imapSecurity: security)
    }

    private static func offers() throws -> [JSONValue] {
        // Record length = 16 + 8 + name + email + user + host + 3; 2 + record fills one block at 254.
        let fill = String(repeating: "x", count: 254 - 16 - 8 - 3 - 15 - 3 - 16)
        let accounts: [(String, AccountMetadata)] = [
            ("typical", try metadata("typical", displayName: "Ada Lovelace", email: "ada@example.org", username: "ada",
                                     host: "imap.example.org")),
            ("empty display name, STARTTLS port 143", try metadata("starttls", displayName: "", email: "b@example.net",
                                                                    username: "b@example.net", host: "mail.example.net",
                                                                    port: 143, security: .startTLS)),
            ("non-ASCII UTF-8", try metadata("utf8", displayName: "Zoë Ñúñez 山田", email: "zoe@exämple.org", username: "zoë",
                                             host: "imap.xn--exmple-cua.org")),
            ("record of 254 bytes: exactly one block", try metadata("oneblock", displayName: fill, email: "a@example.org",
                                                                     username: "abc", host: "imap.example.org")),
            ("record of 255 bytes: two blocks", try metadata("twoblocks", displayName: fill + "x", email: "a@example.org",
                                                              username: "abc", host: "imap.example.org")),
            ("longest fields: 1280-byte plaintext", try metadata("longest", displayName: String(repeating: "d", count: 256),
                                                                  email: String(repeating: "e", count: 320),
                                                                  username: String(repeating: "u", count: 320),
                                                                  host: String(repeating: "h", count: 253), port: 65535)),
        ]
        return try accounts.map { name, account in
            let plaintext = VectorPrimitives.offerPlaintext(account)
            guard try VectorPrimitives.decodeOfferPlaintext(plaintext) == account else {
                throw VectorGenerationError("offer \(name) does not round-trip")
            }
            return .object(["name": .string(name), "account": VectorSupport.account(account), "plaintext": .hex(plaintext),
                            "recordLength": .number(Int(plaintext[0]) << 8 | Int(plaintext[1])), "plaintextLength": .number(plaintext.count)])
        }
    }

    private static func check(_ name: String, _ plaintext: [UInt8], _ expected: HandoffError) throws -> JSONValue {
        do {
            _ = try VectorPrimitives.decodeOfferPlaintext(plaintext)
            throw VectorGenerationError("invalid offer accepted: \(name)")
        } catch let error as HandoffError {
            guard error == expected else { throw VectorGenerationError("offer \(name): \(error.identifier)") }
        }
        return .object(["name": .string(name), "plaintext": .hex(plaintext), "error": .string(expected.identifier)])
    }

    /// Pads a record exactly as the protocol does (Spec 3.4), for hand-made records.
    private static func pad(_ record: [UInt8]) -> [UInt8] {
        let total = (2 + record.count + 255) / 256 * 256
        return [UInt8(record.count >> 8), UInt8(record.count & 0xff)] + record + [UInt8](repeating: 0, count: total - 2 - record.count)
    }

    private static func str(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)] + bytes }

    private static func record(link: [UInt8]? = nil, name: [UInt8] = Array("Ada".utf8), email: [UInt8] = Array("ada@example.org".utf8),
                               user: [UInt8] = Array("ada".utf8), host: [UInt8] = Array("imap.example.org".utf8),
                               port: [UInt8] = [0x03, 0xe1], security: [UInt8] = [1]) -> [UInt8] {
        (link ?? linkID("invalid").bytes) + str(name) + str(email) + str(user) + str(host) + port + security
    }

    private static func invalidOffers() throws -> [JSONValue] {
        let good = pad(record())
        var nonZeroPadding = good; nonZeroPadding[255] = 1
        var wrongLength = good; wrongLength[1] &+= 1
        var hugeLength = good; hugeLength[0] = 0x01  // claims 256 + n bytes: needs 512
        return [
            try check("empty plaintext", [], .malformed(.padding)),
            try check("one byte", [0], .malformed(.padding)),
            try check("non-zero padding byte", nonZeroPadding, .malformed(.padding)),
            try check("record length one too large (still one block)", wrongLength, .malformed(.trailingBytes)),
            try check("record length needs two blocks, one present", hugeLength, .malformed(.padding)),
            try check("512 bytes for a one-block record", good + [UInt8](repeating: 0, count: 256), .malformed(.padding)),
            try check("255 bytes", Array(good.prefix(255)), .malformed(.padding)),
            try check("truncated link ID", pad(Array(record().prefix(10))), .malformed(.accountLinkID)),
            try check("display name length beyond the record", pad(Array(record().prefix(17)) + [0x40]), .malformed(.displayName)),
            try check("invalid UTF-8 in display name", pad(record(name: [0xc3, 0x28])), .malformed(.displayName)),
            try check("overlong UTF-8 in e-mail", pad(record(email: [0xc0, 0xaf])), .malformed(.emailAddress)),
            try check("UTF-16 surrogate in username", pad(record(user: [0xed, 0xa0, 0x80])), .malformed(.username)),
            try check("missing security byte", pad(Array(record().dropLast())), .malformed(.imapSecurity)),
            try check("missing port", pad(Array(record().dropLast(3))), .malformed(.imapPort)),
            try check("security 0", pad(record(security: [0])), .malformed(.imapSecurity)),
            try check("security 3 (plaintext IMAP is not representable)", pad(record(security: [3])), .malformed(.imapSecurity)),
            try check("trailing byte after the record", pad(record() + [0]), .malformed(.trailingBytes)),
            try check("empty e-mail", pad(record(email: [])), .malformed(.emailAddress)),
            try check("empty username", pad(record(user: [])), .malformed(.username)),
            try check("empty host", pad(record(host: [])), .malformed(.imapHost)),
            try check("port 0", pad(record(port: [0, 0])), .malformed(.imapPort)),
            try check("display name of 257 bytes", pad(record(name: [UInt8](repeating: 0x61, count: 257))), .malformed(.displayName)),
            try check("e-mail of 321 bytes", pad(record(email: [UInt8](repeating: 0x61, count: 321))), .malformed(.emailAddress)),
            try check("host of 254 bytes", pad(record(host: [UInt8](repeating: 0x61, count: 254))), .malformed(.imapHost)),
            try check("line feed in host (control character)", pad(record(host: Array("imap\n.example.org".utf8))), .malformed(.imapHost)),
            try check("U+0085 in display name (C1 control)", pad(record(name: [0x41, 0xc2, 0x85])), .malformed(.displayName)),
            try check("NUL in username", pad(record(user: [0x61, 0x00])), .malformed(.username)),
            try check("empty display name and bad e-mail: e-mail reported", pad(record(name: [], email: [0x7f])), .malformed(.emailAddress)),
        ]
    }

    private static func credentials() throws -> [JSONValue] {
        let cases: [(String, [UInt8])] = [
            ("short ASCII password", Array("hunter2".utf8)),
            ("one byte", [0x21]),
            ("UTF-8 password", Array("pässwörd 🔑".utf8)),
            ("1022 bytes (maximum)", VectorSupport.bytes(seed: VectorSupport.seed("credential/max"), count: 1022)),
        ]
        return try cases.map { name, password in
            let plaintext = try VectorPrimitives.credentialPlaintext(password)
            guard try VectorPrimitives.decodeCredentialPlaintext(plaintext) == password else {
                throw VectorGenerationError("credential \(name) does not round-trip")
            }
            return .object(["name": .string(name), "password": .hex(password), "plaintext": .hex(plaintext)])
        }
    }

    private static func invalidCredentials() throws -> [JSONValue] {
        var out: [JSONValue] = []
        for (name, password) in [("empty password", [UInt8]()), ("1023-byte password", [UInt8](repeating: 0x61, count: 1023))] {
            do {
                _ = try VectorPrimitives.credentialPlaintext(password)
                throw VectorGenerationError("credential \(name) accepted")
            } catch let error as HandoffError {
                guard error == .malformed(.credential) else { throw VectorGenerationError("credential \(name): \(error.identifier)") }
            }
            out.append(.object(["name": .string(name), "operation": .string("encode"), "password": .hex(password),
                                "error": .string(HandoffError.malformed(.credential).identifier)]))
        }
        let good = try VectorPrimitives.credentialPlaintext(Array("hunter2".utf8))
        var zeroLength = good; zeroLength[1] = 0
        var tooLong = good; tooLong[0] = 0x03; tooLong[1] = 0xff
        var dirty = good; dirty[1023] = 0x01
        var dirtyNear = good; dirtyNear[9] = 0x20
        let cases: [(String, [UInt8], HandoffError)] = [
            ("length prefix 0", zeroLength, .malformed(.credential)),
            ("length prefix 1023", tooLong, .malformed(.credential)),
            ("1023-byte plaintext", Array(good.prefix(1023)), .malformed(.credential)),
            ("last padding byte non-zero", dirty, .malformed(.padding)),
            ("first padding byte non-zero", dirtyNear, .malformed(.padding)),
        ]
        for (name, plaintext, expected) in cases {
            do {
                _ = try VectorPrimitives.decodeCredentialPlaintext(plaintext)
                throw VectorGenerationError("credential plaintext \(name) accepted")
            } catch let error as HandoffError {
                guard error == expected else { throw VectorGenerationError("credential plaintext \(name): \(error.identifier)") }
            }
            out.append(.object(["name": .string(name), "operation": .string("decode"), "plaintext": .hex(plaintext),
                                "error": .string(expected.identifier)]))
        }
        return out
    }
}
