import AccountHandoff
import AccountHandoffImport
@testable import AccountHandoffThunderbird
import Foundation
import Testing

/// Imports into profiles with real NSS key databases, then reads the account back as a sender
/// would.
@Suite struct ImportRoundTripTests {
    @Test func importedAccountReadsBackWithItsPassword() async throws {
        let scratch = try ScratchProfile()
        defer { scratch.remove() }
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        let prepared = try await importer.prepare(Accounts.ada())
        #expect(prepared.conflict == nil)
        let outcome = await prepared.complete(metadata: Accounts.ada(), credential: Accounts.secret())
        guard case .imported(let record) = outcome else {
            Issue.record("not imported: \(outcome.message)")
            return
        }
        #expect(record.accountKey == "account1")
        #expect(outcome.receiptStatus == .imported)

        let read = try await ThunderbirdAccountSource.account(in: scratch.profile, emailAddress: "ADA@example.org")
        #expect(read.metadata == Accounts.ada(), "every field, the link ID included, comes back")
        #expect(Accounts.text(read.password) == Accounts.password)
        let prefs = try scratch.read("prefs.js")
        #expect(prefs.contains("user_pref(\"mail.account.account1.handoff_link_id\", \"6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162\");"))
        #expect(prefs.contains("user_pref(\"mail.server.server1.hostname\", \"imap.example.org\");"))
        #expect(prefs.contains("user_pref(\"mail.accountmanager.accounts\", \"account1\");"))
        #expect(!prefs.contains(Accounts.password))
        let logins = try scratch.read("logins.json")
        #expect(logins.contains("\"hostname\":\"imap://imap.example.org\",\"httpRealm\":\"imap://imap.example.org\""))
        #expect(!logins.contains(Accounts.password) && !logins.contains("\"ada\""))
        #expect(!FileManager.default.fileExists(atPath: scratch.directory.appendingPathComponent(".handoff-import").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.directory.appendingPathComponent("lock").path), "the lock is released")
    }
}
