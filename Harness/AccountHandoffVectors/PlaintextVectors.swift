import AccountHandoff
import AccountHandoffTestSupport

/// `plaintexts.json`: offer (account metadata) and credential plaintexts with their padding,
/// invalid plaintexts with their errors, and the account text rules (Spec 3.4-3.7).
enum PlaintextVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Encrypted-frame plaintexts (Spec 3.4-3.7): account metadata records padded to 256-byte blocks, credential plaintexts padded to 1024 bytes, invalid plaintexts with the error of the first failing check, and account strings with the verdict of the text rules, also for every code point at an edge of a range of Spec/account-text-tables.txt."),
            "offer": .array(try offers()),
            "invalidOffer": .array(try InvalidOfferVectors.make()),
            "credential": .array(try credentials()),
            "invalidCredential": .array(try invalidCredentials()),
            "displayStrings": .array(try displayStrings()),
            "codePoints": .array(try CodePointVectors.make()),
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

    /// The record length of an account (Spec 3.4): link ID, four length-prefixed strings, port, security, sender gate.
    static func recordLength(_ account: AccountMetadata) -> Int {
        16 + [account.displayName, account.emailAddress, account.username, account.imapHost].reduce(0) { $0 + 2 + $1.utf8.count } + 4
    }

    /// A valid host name of exactly `length` bytes: labels of 63 `h`, then the rest.
    static func host(_ length: Int) -> String {
        var labels: [String] = []
        var remaining = length
        while remaining > 64 {
            labels.append(String(repeating: "h", count: 63))
            remaining -= 64
        }
        labels.append(String(repeating: "h", count: remaining))
        return labels.joined(separator: ".")
    }

    private static func offers() throws -> [JSONValue] {
        // Record = 28 + the four strings' bytes; "Ada Lovelace", "a@example.org" and
        // "imap.example.org" take 41, so the username fills the rest.
        let fixed = 28 + 12 + 13 + 16
        let largestHost = host(253)
        let listed: [(String, AccountMetadata, Int?)] = [
            ("typical", try metadata("typical", displayName: "Ada Lovelace", email: "ada@example.org", username: "ada",
                                     host: "imap.example.org"), nil),
            ("typical, the sending device does not ask its person (sender gate 2)",
             try metadata("typical", displayName: "Ada Lovelace", email: "ada@example.org", username: "ada",
                          host: "imap.example.org"), nil),
            ("empty display name, STARTTLS port 143", try metadata("starttls", displayName: "", email: "b@example.net",
                                                                    username: "b@example.net", host: "mail.example.net",
                                                                    port: 143, security: .startTLS), nil),
            ("non-ASCII UTF-8", try metadata("utf8", displayName: "Zoë Ñúñez 山田", email: "zoe@exämple.org", username: "zoë",
                                             host: "imap.xn--exmple-cua.org"), nil),
            ("port 1 (the smallest)", try metadata("port1", displayName: "Ada", email: "ada@example.org", username: "ada",
                                                    host: "imap.example.org", port: 1), nil),
            ("record of 253 bytes: one block (256-byte plaintext)",
             try metadata("253", displayName: "Ada Lovelace", email: "a@example.org", username: String(repeating: "u", count: 253 - fixed),
                          host: "imap.example.org"), 253),
            ("record of 254 bytes: exactly one block (256-byte plaintext)",
             try metadata("254", displayName: "Ada Lovelace", email: "a@example.org", username: String(repeating: "u", count: 254 - fixed),
                          host: "imap.example.org"), 254),
            ("record of 255 bytes: two blocks (512-byte plaintext)",
             try metadata("255", displayName: "Ada Lovelace", email: "a@example.org", username: String(repeating: "u", count: 255 - fixed),
                          host: "imap.example.org"), 255),
            ("record of 510 bytes: exactly two blocks (512-byte plaintext)",
             try metadata("510", displayName: "Ada Lovelace", email: "a@example.org", username: String(repeating: "u", count: 320),
                          host: host(510 - fixed - 320 + 16)), 510),
            ("record of 511 bytes: three blocks (768-byte plaintext)",
             try metadata("511", displayName: "Ada Lovelace", email: "a@example.org", username: String(repeating: "u", count: 320),
                          host: host(511 - fixed - 320 + 16)), 511),
            ("largest record (1177 bytes, every field at its maximum): five blocks (1280-byte plaintext)",
             try metadata("largest", displayName: String(repeating: "\u{1F600}", count: 64),
                          email: String(repeating: "e", count: 308) + "@example.org", username: String(repeating: "u", count: 320),
                          host: largestHost, port: 65535, security: .startTLS), 1177),
        ]
        let accounts = listed.map { ($0.0, $0.1, $0.2, $0.0.contains("sender gate 2") ? GateDeclaration.skipped : .asks) }
        return try accounts.map { name, account, claimedRecord, senderGate in
            let plaintext = VectorPrimitives.offerPlaintext(account, senderGate: senderGate)
            let record = recordLength(account)
            let decoded = try VectorPrimitives.decodeOffer(plaintext)
            guard decoded.account == account, decoded.senderGate == senderGate, Int(plaintext[0]) << 8 | Int(plaintext[1]) == record,
                  plaintext.count == (2 + record + 255) / 256 * 256, claimedRecord.map({ $0 == record }) ?? true,
                  claimedRecord == nil || name.contains("(\(plaintext.count)-byte plaintext)") else {
                throw VectorGenerationError("offer \(name) does not round-trip or does not match its name")
            }
            return .object(["name": .string(name), "account": VectorSupport.account(account), "senderGate": .number(senderGate.rawValue),
                            "plaintext": .hex(plaintext),
                            "recordLength": .number(record), "plaintextLength": .number(plaintext.count),
                            "blocks": .number(plaintext.count / 256)])
        }
    }

    private static func credentials() throws -> [JSONValue] {
        let cases: [(String, [UInt8])] = [
            ("short ASCII password", Array("hunter2".utf8)),
            ("one byte (the shortest)", [0x21]),
            ("UTF-8 password", Array("pässwörd 🔑".utf8)),
            ("1022 bytes (the longest)", VectorSupport.bytes(seed: VectorSupport.seed("credential/max"), count: 1022)),
        ]
        return try cases.map { name, password in
            let plaintext = try VectorPrimitives.credentialPlaintext(password)
            guard try VectorPrimitives.decodeCredentialPlaintext(plaintext) == password, plaintext.count == 1024 else {
                throw VectorGenerationError("credential \(name) does not round-trip")
            }
            return .object(["name": .string(name), "password": .hex(password), "plaintext": .hex(plaintext)])
        }
    }

    private static func invalidCredentials() throws -> [JSONValue] {
        var out: [JSONValue] = []
        for (name, password) in [("empty password", [UInt8]()), ("1023-byte password", [UInt8](repeating: 0x61, count: 1023))] {
            try VectorSupport.expectError(.malformed(.credential), "credential \(name)") { () throws(HandoffError) in
                _ = try VectorPrimitives.credentialPlaintext(password)
            }
            out.append(.object(["name": .string(name), "operation": .string("encode"), "password": .hex(password),
                                "error": .string(HandoffError.malformed(.credential).identifier)]))
        }
        let good = try VectorPrimitives.credentialPlaintext(Array("hunter2".utf8))
        let patched = VectorSupport.patched
        let cases: [(String, [UInt8], HandoffError)] = [
            ("length prefix 0", patched(good, 1, 0), .malformed(.credential)),
            ("length prefix 1023", patched(patched(good, 0, 0x03), 1, 0xff), .malformed(.credential)),
            ("1023-byte plaintext", Array(good.prefix(1023)), .malformed(.credential)),
            ("1025-byte plaintext", good + [0], .malformed(.credential)),
            ("empty plaintext", [], .malformed(.credential)),
            ("last padding byte non-zero", patched(good, 1023, 0x01), .malformed(.padding)),
            ("first padding byte non-zero", patched(good, 9, 0x20), .malformed(.padding)),
            ("length prefix 0 and non-zero padding (length first)", patched(patched(good, 1, 0), 1023, 1), .malformed(.credential)),
        ]
        for (name, plaintext, expected) in cases {
            try VectorSupport.expectError(expected, "credential plaintext \(name)") { () throws(HandoffError) in
                _ = try VectorPrimitives.decodeCredentialPlaintext(plaintext)
            }
            out.append(.object(["name": .string(name), "operation": .string("decode"), "plaintext": .hex(plaintext),
                                "error": .string(expected.identifier)]))
        }
        return out
    }

    private static func displayStrings() throws -> [JSONValue] {
        try AccountTextCases.all.map { item in
            let thrown = VectorSupport.thrownIdentifier { () throws(HandoffError) in
                try VectorPrimitives.validateAccountText(item.value, field: item.field)
            }
            let expected = item.refusedBy == nil ? nil : HandoffError.malformed(item.field).identifier
            guard thrown == expected else {
                throw VectorGenerationError("display string \(item.name): got \(thrown ?? "ok"), meant \(expected ?? "ok")")
            }
            return .object(["name": .string(item.name), "field": .string(item.field.rawValue), "text": .string(item.value),
                            "utf8": .hex(Array(item.value.utf8)), "rule": item.refusedBy.map(JSONValue.string) ?? .null,
                            "result": .string(thrown ?? "ok")])
        }
    }
}
