import AccountHandoff
import Foundation

/// The JSON shape of an account's metadata, both in `send --account FILE` and in the store.
/// It has no password field, and an input file that has one is refused.
package struct AccountRecord: Codable, Equatable {
    var accountLinkID: String
    var displayName: String
    var emailAddress: String
    var username: String
    var imapHost: String
    var imapPort: Int
    var imapSecurity: String

    /// The keys an account file may contain (the store adds the two after them).
    static let inputKeys: Set<String> = ["accountLinkID", "displayName", "emailAddress", "username", "imapHost", "imapPort", "imapSecurity"]
    /// Keys that would hold a secret; an account file with one is refused outright.
    static let secretKeys: Set<String> = ["password", "passwd", "pass", "secret", "credential", "token"]
    /// Keys the store writes besides the metadata.
    static let storeKeys: Set<String> = ["importedAt", "credentialFile"]

    package init(_ metadata: AccountMetadata) {
        accountLinkID = metadata.linkID.description
        displayName = metadata.displayName
        emailAddress = metadata.emailAddress
        username = metadata.username
        imapHost = metadata.imapHost
        imapPort = Int(metadata.imapPort)
        imapSecurity = metadata.imapSecurity == .tls ? "tls" : "startTLS"
    }

    /// Validates the record into metadata, naming the first bad field.
    func metadata() throws(CLIError) -> AccountMetadata {
        guard let uuid = UUID(uuidString: accountLinkID) else {
            throw CLIError("The account's accountLinkID must be a UUID such as 6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162; it is the account's identity on every device. \(Self.newLinkIDHint)", exitCode: .invalidInput)
        }
        guard let port = UInt16(exactly: imapPort), port > 0 else {
            throw CLIError("The account's imapPort must be a number from 1 to 65535.", exitCode: .invalidInput)
        }
        let security: IMAPSecurity
        // Any case: the output itself prints "(TLS)" and "(STARTTLS)".
        switch imapSecurity.lowercased() {
        case "tls": security = .tls
        case "starttls": security = .startTLS
        default:
            throw CLIError("The account's imapSecurity \(Self.quoted(imapSecurity)) is not a setting this tool knows: use \"tls\" (TLS from the first byte, usually port 993) or \"startTLS\" (usually port 143). Plaintext IMAP is not supported.",
                           exitCode: .invalidInput)
        }
        let metadata: AccountMetadata
        do {
            metadata = try AccountMetadata(linkID: AccountLinkID(uuid: uuid), displayName: displayName, emailAddress: emailAddress,
                                           username: username, imapHost: imapHost, imapPort: port, imapSecurity: security)
        } catch {
            let field = error.field?.rawValue ?? "account"
            // A display name may be empty (Spec 3.7); the other text fields may not.
            let faults = error.field == .displayName ? "is too long" : "is empty, too long"
            throw CLIError("The account's \(field) \(faults), or holds characters an account field may not hold (control, format, bidirectional or invisible characters, line separators, or stacked marks); fix it in the account file.", exitCode: .invalidInput)
        }
        // The protocol carries any text (Spec 3.7); a file typed by a person is held to the shape of an address.
        let parts = emailAddress.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw CLIError("The account's emailAddress \(Self.quoted(emailAddress)) is not an e-mail address: it needs one @ with a name before it and a domain after it, as in ada@example.org; fix it in the account file.", exitCode: .invalidInput)
        }
        return metadata
    }

    /// How to make a link ID for an account that has none yet.
    static let newLinkIDHint = "For an account that has none yet, make one with 'uuidgen' and keep it in the file: every later transfer of the account must carry the same one."

    /// Reads `send --account FILE`.
    static func load(_ path: String) throws(CLIError) -> AccountMetadata {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CLIError("The account file \(path) cannot be read; check the path and its permissions.", exitCode: .invalidInput)
        }
        guard data.count <= 64 * 1024, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLIError("The account file \(path) is not a JSON object; see 'handoff help send' for its format.", exitCode: .invalidInput)
        }
        let keys = Set(object.keys)
        if keys.contains(where: { secretKeys.contains($0.lowercased()) }) {
            throw CLIError("The account file \(path) must not contain a password; remove it and pass the password with --password-stdin or --password-file.", exitCode: .invalidInput)
        }
        if let unknown = keys.subtracting(inputKeys).subtracting(storeKeys).sorted().first {
            throw CLIError("The account file \(path) has an unknown field \"\(unknown.prefix(40))\"; see 'handoff help send' for its format.", exitCode: .invalidInput)
        }
        let missing = inputKeys.subtracting(keys).sorted()
        guard missing.isEmpty else {
            let hint = missing.contains("accountLinkID") ? " \(newLinkIDHint)" : ""
            throw CLIError("The account file \(path) is incomplete: it lacks \(missing.joined(separator: ", ")); see 'handoff help send' for its format.\(hint)", exitCode: .invalidInput)
        }
        let kinds = (try? JSONDecoder().decode([String: JSONKind].self, from: data)) ?? [:]
        if let field = inputKeys.sorted().first(where: { kinds[$0] != ($0 == "imapPort" ? .wholeNumber : .text) }) {
            let kind = field == "imapPort" ? "a number such as 993 (not in quotes)" : "text in quotes"
            throw CLIError("The account file \(path) has the wrong type for \(field): it must be \(kind); see 'handoff help send' for its format.", exitCode: .invalidInput)
        }
        let record: AccountRecord
        do { record = try JSONDecoder().decode(AccountRecord.self, from: data) } catch {
            throw CLIError("The account file \(path) has a field the account cannot hold (imapPort must be a whole number); see 'handoff help send' for its format.", exitCode: .invalidInput)
        }
        return try record.metadata()
    }


    /// A value from the file, quoted when it is short plain ASCII; otherwise only described,
    /// so a hostile file cannot write to the terminal.
    private static func quoted(_ value: String) -> String {
        let plain = value.count <= 24 && value.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        return plain ? "\"\(value)\"" : "(\(value.unicodeScalars.count) characters, not shown)"
    }
}

/// What kind of JSON value a field holds, to name a field of the wrong type.
private enum JSONKind: Decodable, Equatable {
    case text, wholeNumber, other

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if (try? value.decode(String.self)) != nil {
            self = .text
        } else if (try? value.decode(Bool.self)) != nil {
            self = .other
        } else if (try? value.decode(Int.self)) != nil {
            self = .wholeNumber
        } else {
            self = .other
        }
    }
}
