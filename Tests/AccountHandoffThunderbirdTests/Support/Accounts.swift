import AccountHandoff
import AccountHandoffImport
import Foundation

/// The accounts and passwords the tests transfer.
enum Accounts {
    static let linkID = AccountLinkID(uuid: UUID(uuidString: "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162")!)
    static let password = "Tr0ub4dor&3-nur-für-tests"

    static func ada(host: String = "imap.example.org", port: UInt16 = 993, user: String = "ada",
                    linkID: AccountLinkID = Accounts.linkID, email: String = "ada@example.org",
                    security: IMAPSecurity = .tls) -> AccountMetadata {
        try! AccountMetadata(linkID: linkID, displayName: "Ada Lovelace", emailAddress: email, username: user,
                             imapHost: host, imapPort: port, imapSecurity: security)
    }

    static func secret(_ text: String = Accounts.password) -> SecretBytes {
        try! SecretBytes(copying: Array(text.utf8))
    }

    static func text(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}

/// A validator that checks nothing (`handoff receive --no-validation`).
struct NoValidation: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .notChecked }
}
