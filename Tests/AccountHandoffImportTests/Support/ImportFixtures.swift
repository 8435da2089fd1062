import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import Foundation

/// Shared inputs of the import tests.
enum ImportFixtures {
    /// A fresh, empty scratch directory (removed by the caller with ``remove(_:)``).
    static func scratchDirectory() throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp/accounthandoff-import-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        return directory
    }

    static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A validator trusting only the shared server's throwaway CA.
    static func validator(_ server: ThrowawayDovecot, plaintext: IMAPValidatorConfiguration.PlaintextPolicy = .refuse,
                          connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(10)) -> IMAPValidator {
        IMAPValidator(configuration: IMAPValidatorConfiguration(trust: .certificateAuthorityFile(server.caFile),
                                                                connectTimeout: connectTimeout, totalTimeout: totalTimeout,
                                                                plaintext: plaintext))
    }

    /// An account on the shared server.
    static func account(_ server: ThrowawayDovecot, host: String? = nil, port: UInt16? = nil, security: IMAPSecurity = .tls,
                        linkID: AccountLinkID = AccountLinkID(uuid: UUID()), email: String = "ada@example.org",
                        displayName: String = "Ada Lovelace", username: String = SharedDovecot.user) throws -> AccountMetadata {
        try AccountMetadata(linkID: linkID, displayName: displayName, emailAddress: email, username: username,
                            imapHost: host ?? server.host, imapPort: port ?? (security == .tls ? server.tlsPort : server.startTLSPort),
                            imapSecurity: security)
    }

    static func rightPassword() throws -> SecretBytes { try SecretBytes(utf8: SharedDovecot.password) }
    static func wrongPassword() throws -> SecretBytes { try SecretBytes(utf8: "not-the-password") }
    static func oldPassword() throws -> SecretBytes { try SecretBytes(utf8: ImportScenario.oldPassword) }
}
