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
            throw CLIError(sentenceCatalog.sentence("accountFile.linkID", .text(Self.newLinkIDHint), in: .cli), exitCode: .invalidInput)
        }
        guard let port = UInt16(exactly: imapPort), port > 0 else {
            throw CLIError(sentenceCatalog.sentence("accountFile.port", in: .cli), exitCode: .invalidInput)
        }
        let security: IMAPSecurity
        // Any case: the output itself prints "(TLS)" and "(STARTTLS)".
        switch imapSecurity.lowercased() {
        case "tls": security = .tls
        case "starttls": security = .startTLS
        default:
            throw CLIError(sentenceCatalog.sentence("accountFile.security", .text(Self.quoted(imapSecurity)), .text(Self.noPlaintextAccounts), in: .cli),
                           exitCode: .invalidInput)
        }
        let metadata: AccountMetadata
        do {
            metadata = try AccountMetadata(linkID: AccountLinkID(uuid: uuid), displayName: displayName, emailAddress: emailAddress,
                                           username: username, imapHost: imapHost, imapPort: port, imapSecurity: security)
        } catch {
            let field = error.field?.rawValue ?? "account"
            // A display name may be empty (Spec 3.7); the other text fields may not.
            throw CLIError(error.field == .displayName ? sentenceCatalog.sentence("accountFile.displayNameInvalid", in: .cli)
                                                       : sentenceCatalog.sentence("accountFile.fieldInvalid", .text(field), in: .cli), exitCode: .invalidInput)
        }
        // The protocol carries any text (Spec 3.7); a file typed by a person is held to the shape of an address.
        let parts = emailAddress.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw CLIError(sentenceCatalog.sentence("accountFile.notAnAddress", .text(Self.quoted(emailAddress)), in: .cli), exitCode: .invalidInput)
        }
        return metadata
    }

    /// What a transfer refuses, and what `receive --allow-plaintext` allows instead (Spec 3.4:
    /// the offer carries TLS or STARTTLS only).
    package static let noPlaintextAccounts = sentenceCatalog.sentence("accountFile.noPlaintext", in: .cli)

    /// How to make a link ID for an account that has none yet.
    static let newLinkIDHint = sentenceCatalog.sentence("accountFile.uuidgen", in: .cli)

    /// Reads `send --account FILE`.
    static func load(_ path: String) throws(CLIError) -> AccountMetadata {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CLIError(sentenceCatalog.sentence("accountFile.unreadable", .text(path), in: .cli), exitCode: .invalidInput)
        }
        guard data.count <= 64 * 1024, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLIError(sentenceCatalog.sentence("accountFile.notObject", .text(path), in: .cli), exitCode: .invalidInput)
        }
        let keys = Set(object.keys)
        if keys.contains(where: { secretKeys.contains($0.lowercased()) }) {
            throw CLIError(sentenceCatalog.sentence("accountFile.hasPassword", .text(path), in: .cli), exitCode: .invalidInput)
        }
        if let unknown = keys.subtracting(inputKeys).subtracting(storeKeys).sorted().first {
            throw CLIError(sentenceCatalog.sentence("accountFile.unknownField", .text(path), .text(String(unknown.prefix(40))), in: .cli), exitCode: .invalidInput)
        }
        let missing = inputKeys.subtracting(keys).sorted()
        guard missing.isEmpty else {
            let hint = missing.contains("accountLinkID") ? " \(newLinkIDHint)" : ""
            throw CLIError(sentenceCatalog.sentence("accountFile.incomplete", .text(path), .text(missing.joined(separator: ", ")), .text(hint), in: .cli),
                           exitCode: .invalidInput)
        }
        let kinds = (try? JSONDecoder().decode([String: JSONKind].self, from: data)) ?? [:]
        if let field = inputKeys.sorted().first(where: { kinds[$0] != ($0 == "imapPort" ? .wholeNumber : .text) }) {
            let kind = field == "imapPort" ? sentenceCatalog.sentence("accountFile.kind.number", in: .cli) : sentenceCatalog.sentence("accountFile.kind.text", in: .cli)
            throw CLIError(sentenceCatalog.sentence("accountFile.wrongType", .text(path), .text(field), .text(kind), in: .cli), exitCode: .invalidInput)
        }
        let record: AccountRecord
        do { record = try JSONDecoder().decode(AccountRecord.self, from: data) } catch {
            throw CLIError(sentenceCatalog.sentence("accountFile.portNotWhole", .text(path), in: .cli), exitCode: .invalidInput)
        }
        return try record.metadata()
    }


    /// A value from the file, quoted when it is short plain ASCII; otherwise only described,
    /// so a hostile file cannot write to the terminal.
    private static func quoted(_ value: String) -> String {
        let plain = value.count <= 24 && value.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        return plain ? "\"\(value)\"" : sentenceCatalog.sentence("accountFile.notShown", .number(value.unicodeScalars.count), in: .cli)
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
