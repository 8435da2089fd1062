import AccountHandoff
import AccountHandoffImport
import Foundation
import Testing

/// Conflicts are found from metadata alone, before the password travels.
@Suite struct ConflictDetectorTests {
    static let linkID = AccountLinkID(uuid: UUID(uuidString: "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162")!)

    static func account(linkID: AccountLinkID = AccountLinkID(uuid: UUID()), email: String = "ada@example.org",
                        host: String = "imap.example.org", port: UInt16 = 993, name: String = "Ada") throws -> AccountMetadata {
        try AccountMetadata(linkID: linkID, displayName: name, emailAddress: email, username: "ada", imapHost: host,
                            imapPort: port, imapSecurity: .tls)
    }

    static func stored(_ metadata: AccountMetadata, _ id: String) -> StoredAccount {
        StoredAccount(id: LocalAccountID(rawValue: id)!, metadata: metadata, revision: 1)
    }

    @Test func noStoredAccountMeansNoConflict() throws {
        #expect(ConflictDetector.conflict(for: try Self.account(), among: []) == nil)
        let unrelated = Self.stored(try Self.account(email: "grace@example.org"), "a")
        #expect(ConflictDetector.conflict(for: try Self.account(), among: [unrelated]) == nil)
    }

    @Test func sameLinkIDAllowsOnlyReplaceOrCancel() throws {
        let old = Self.stored(try Self.account(linkID: Self.linkID, email: "old@example.org", host: "old.example.org"), "a")
        let conflict = try #require(ConflictDetector.conflict(for: try Self.account(linkID: Self.linkID), among: [old]))
        #expect(conflict.existing.map(\.reasons) == [.sameLinkID])
        #expect(!conflict.canKeepBoth)
        #expect(conflict.allowedChoices == [.replace(old.id), .cancel])
    }

    @Test func sameAddressAndServerAllowsKeepingBoth() throws {
        let old = Self.stored(try Self.account(email: "ADA@Example.org", host: "IMAP.Example.ORG"), "a")
        let conflict = try #require(ConflictDetector.conflict(for: try Self.account(), among: [old]))
        #expect(conflict.existing.map(\.reasons) == [.sameAddressAndServer])
        #expect(conflict.allowedChoices == [.replace(old.id), .keepBoth, .cancel])
    }

    @Test func anotherPortOrHostIsNotTheSameServer() throws {
        let offer = try Self.account()
        #expect(ConflictDetector.conflict(for: offer, among: [Self.stored(try Self.account(port: 143), "a")]) == nil)
        #expect(ConflictDetector.conflict(for: offer, among: [Self.stored(try Self.account(host: "imap.example.net"), "a")]) == nil)
    }

    @Test func aLinkIDMatchTakesPrecedenceOverAnAddressMatch() throws {
        let sameLink = Self.stored(try Self.account(linkID: Self.linkID, email: "renamed@example.org"), "b")
        let sameAddress = Self.stored(try Self.account(), "a")
        let conflict = try #require(ConflictDetector.conflict(for: try Self.account(linkID: Self.linkID), among: [sameLink, sameAddress]))
        #expect(conflict.existing.map(\.account.id.rawValue) == ["a", "b"])
        // Replacing the address match would leave two accounts with one link ID.
        #expect(conflict.allowedChoices == [.replace(sameLink.id), .cancel])
    }

    @Test func bothReasonsOnOneAccount() throws {
        let old = Self.stored(try Self.account(linkID: Self.linkID), "a")
        let conflict = try #require(ConflictDetector.conflict(for: try Self.account(linkID: Self.linkID), among: [old]))
        #expect(conflict.existing.first?.reasons == [.sameLinkID, .sameAddressAndServer])
    }

    @Test func comparisonShowsEveryFieldSideBySideWithoutSecrets() throws {
        let old = Self.stored(try Self.account(linkID: Self.linkID, port: 993, name: "Ada (old)"), "a")
        let offer = try Self.account(linkID: Self.linkID, name: "Ada (new)")
        let rows = try #require(ConflictDetector.conflict(for: offer, among: [old])?.existing.first?.comparison)
        #expect(rows.map(\.field) == ComparedField.Field.allCases)
        #expect(rows.filter(\.differs).map(\.field) == [.displayName])
        #expect(rows.first { $0.field == .imapServer }?.offered == "imap.example.org:993")
        #expect(rows.first { $0.field == .accountLinkID }?.existing == Self.linkID.description)
        #expect(rows.map(\.field.label) == ["Display name", "E-mail address", "Username", "IMAP server", "Security", "Account link ID"])
    }
}
