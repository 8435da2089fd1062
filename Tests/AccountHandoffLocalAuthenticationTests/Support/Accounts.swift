import AccountHandoff
import Foundation

/// The account the purposes in these tests are about.
enum Accounts {
    static let ada: AccountMetadata = {
        // The fields are valid constants, so this cannot throw.
        try! AccountMetadata(linkID: AccountLinkID(uuid: UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")!),
                             displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
                             imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }()
}
