import AccountHandoff
import AccountHandoffImport
@testable import AccountHandoffThunderbird
import Foundation
import Testing

/// An account is never added twice: the conflict rules and choices of the reference store,
/// plus Thunderbird's own rule of one account per user and server.
@Suite struct ImportConflictTests {
    @Test func theSameAccountIsReplacedInPlaceWithItsNewPassword() async throws {
        let scratch = try ScratchProfile()
        defer { scratch.remove() }
        try await Self.importAccount(Accounts.ada(), into: scratch)
        let moved = Accounts.ada(host: "mail.example.net", port: 143, user: "ada.l", security: .startTLS)
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        let prepared = try await importer.prepare(moved)
        let conflict = try #require(prepared.conflict)
        #expect(conflict.existing.map(\.account.id.rawValue) == ["account1"])
        #expect(conflict.existing[0].reasons == .sameLinkID)
        #expect(prepared.allowedChoices == [.replace(LocalAccountID(rawValue: "account1")!), .cancel], "the same link ID: no keeping both")
        #expect(throws: ImportError.choiceNotAllowed(.keepBoth)) { try prepared.choose(.keepBoth) }
        try prepared.choose(.replace(LocalAccountID(rawValue: "account1")!))
        let outcome = await prepared.complete(metadata: moved, credential: Accounts.secret("new-password"))
        guard case .imported(let record) = outcome else { Issue.record("\(outcome.message)"); return }
        #expect(record.accountKey == "account1")
        #expect(outcome.message.hasPrefix("The account ada@example.org replaced the account ada@example.org in the Thunderbird profile scratch ("))

        let read = try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: nil)
        #expect(read.metadata == moved)
        #expect(Accounts.text(read.password) == "new-password")
        let logins = try LoginsFile(parsing: Array(try scratch.read("logins.json").utf8))
        #expect(logins.logins.map(\.origin) == ["imap://mail.example.net"], "the old server's login is gone with it")
        let prefs = try scratch.read("prefs.js")
        #expect(prefs.contains("user_pref(\"mail.accountmanager.accounts\", \"account1\");"))
        #expect(!prefs.contains("account2") && !prefs.contains("server2"))
    }

    @Test func anotherAccountOnTheSameServerMayBeKeptBeside() async throws {
        let scratch = try ScratchProfile()
        defer { scratch.remove() }
        try await Self.importAccount(Accounts.ada(), into: scratch)
        // Another link ID, the same address and server: a conflict the person settles.
        let other = Accounts.ada(user: "ada2", linkID: AccountLinkID(uuid: UUID()))
        let prepared = try await ThunderbirdImporter(profile: scratch.profile, validator: NoValidation()).prepare(other)
        #expect(prepared.conflict?.existing.first?.reasons == .sameAddressAndServer)
        #expect(prepared.allowedChoices == [.replace(LocalAccountID(rawValue: "account1")!), .keepBoth, .cancel])
        try prepared.choose(.keepBoth)
        guard case .imported(let record) = await prepared.complete(metadata: other, credential: Accounts.secret("second")) else {
            Issue.record("not imported"); return
        }
        #expect(record.accountKey == "account2")
        let prefs = try scratch.read("prefs.js")
        #expect(prefs.contains("user_pref(\"mail.accountmanager.accounts\", \"account1,account2\");"))
        #expect(prefs.contains("user_pref(\"mail.account.account2.server\", \"server2\");"))
        #expect(prefs.contains("user_pref(\"mail.accountmanager.defaultaccount\", \"account1\");"), "the default account stays")
        let logins = try LoginsFile(parsing: Array(try scratch.read("logins.json").utf8))
        #expect(logins.logins.count == 2)
    }

    @Test func keepingBothIsRefusedWhereThunderbirdWouldHoldTwoAccountsForOneUser() async throws {
        let scratch = try ScratchProfile()
        defer { scratch.remove() }
        try await Self.importAccount(Accounts.ada(), into: scratch)
        // Same user and server, another link ID: Thunderbird keeps one account per user and server.
        let twin = Accounts.ada(linkID: AccountLinkID(uuid: UUID()))
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        let prepared = try await importer.prepare(twin)
        #expect(prepared.allowedChoices == [.replace(LocalAccountID(rawValue: "account1")!), .cancel])
        prepared.cancel()
        await importer.waitUntilReleased()
        // Same user and server under another address: no conflict by the rules, so refused.
        let renamed = Accounts.ada(linkID: AccountLinkID(uuid: UUID()), email: "lovelace@example.org")
        let before = try scratch.tree()
        await #expect(throws: ThunderbirdProfileError.serverAlreadyConfigured(emailAddress: "ada@example.org", server: "imap.example.org")) {
            try await ThunderbirdImporter(profile: scratch.profile, validator: NoValidation()).prepare(renamed)
        }
        await ThunderbirdImporter(profile: scratch.profile, validator: NoValidation()).waitUntilReleased()
        #expect(try scratch.tree() == before)
    }

    @Test func cancellingLeavesTheProfileAsItWas() async throws {
        let scratch = try ScratchProfile()
        defer { scratch.remove() }
        try await Self.importAccount(Accounts.ada(), into: scratch)
        let before = try scratch.tree()
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        let prepared = try await importer.prepare(Accounts.ada())
        try prepared.choose(.cancel)
        #expect(await prepared.complete(metadata: Accounts.ada(), credential: Accounts.secret()) == .declined(.alreadyFinished))
        await importer.waitUntilReleased()
        #expect(try scratch.tree() == before)
    }

    @Test func otherLoginsAndPreferencesAreKept() async throws {
        let scratch = try ScratchProfile(prefs: """
            // Mozilla User Preferences

            user_pref("browser.some.setting", "kept \\"as is\\"");
            user_pref("mail.accountmanager.accounts", "account7");
            user_pref("mail.account.account7.server", "server4");
            user_pref("mail.server.server4.type", "none");
            user_pref("mail.account.lastKey", 7);

            """)
        defer { scratch.remove() }
        try await Self.importAccount(Accounts.ada(), into: scratch)
        try await Self.importAccount(Accounts.ada(host: "imap.example.com", user: "bob", linkID: AccountLinkID(uuid: UUID()), email: "bob@example.com"),
                                     into: scratch)
        let prefs = try scratch.read("prefs.js")
        #expect(prefs.hasPrefix("// Mozilla User Preferences\n\nuser_pref(\"browser.some.setting\", \"kept \\\"as is\\\"\");\n"))
        #expect(prefs.contains("user_pref(\"mail.accountmanager.accounts\", \"account7,account8,account9\");"))
        #expect(prefs.contains("user_pref(\"mail.account.account8.server\", \"server5\");"))
        #expect(prefs.contains("user_pref(\"mail.account.lastKey\", 9);"))
        let first = try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: "ada@example.org")
        #expect(Accounts.text(first.password) == Accounts.password)
        let second = try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: "bob@example.com")
        #expect(second.metadata.username == "bob")
        await #expect(throws: ThunderbirdProfileError.ambiguousAccount(available: ["ada@example.org", "bob@example.com"])) {
            try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: nil)
        }
    }

    static func importAccount(_ account: AccountMetadata, into scratch: ScratchProfile, password: String = Accounts.password) async throws {
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        let prepared = try await importer.prepare(account)
        let outcome = await prepared.complete(metadata: account, credential: Accounts.secret(password))
        guard case .imported = outcome else { throw ImportFailed(message: outcome.message) }
    }

    struct ImportFailed: Error { let message: String }
}
