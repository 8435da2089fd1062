import AccountHandoff
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import AccountHandoffTransport
import Foundation
import Testing

/// A per-test directory with an account file, a password file (mode 0600) and store paths.
struct Scratch {
    let directory: URL
    var accountFile: URL { directory.appendingPathComponent("account.json") }
    var passwordFile: URL { directory.appendingPathComponent("password") }
    /// The receiving device's store.
    var store: URL { directory.appendingPathComponent("store") }
    /// Another device's store (a second receiving device in a race).
    var otherStore: URL { directory.appendingPathComponent("other-store") }
    /// The receiver's account database (SQLite; never a secret).
    var databaseFile: URL { store.appendingPathComponent(ReferenceAccountStore.databaseName) }
    /// The active credential file of the stored account with ``linkID``, once there is one.
    var credentialFile: URL? {
        get async {
            await storedAccount.map { store.appendingPathComponent(ReferenceAccountStore.credentialsDirectoryName)
                .appendingPathComponent("account-\($0.id).credential") }
        }
    }

    static let linkID = "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162"
    static let accountJSON = """
        {"accountLinkID": "\(linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
         "username": "ada", "imapHost": "imap.example.org", "imapPort": 993, "imapSecurity": "tls"}
        """
    /// The longest code lifetime `handoff send --lifetime` takes, in seconds.
    static let longestLifetime = 600
    /// The name the receiver's persisted registry has in the store.
    static let registryFileName = "scanned-codes"

    init(account: String = Scratch.accountJSON) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(account.utf8).write(to: accountFile)
        try Data((HandoffProcess.testPassword + "\n").utf8).write(to: passwordFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file in the scratch directory.
    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// What a store holds, to prove it did not change: per local account ID, the account's
    /// metadata and its password. Empty when there is no store (reading never creates one).
    /// Read on the I/O pool (the store blocks).
    func storeSnapshot(_ store: URL? = nil) async -> [String: String] {
        let directory = store ?? self.store
        return await ((try? blocking { Self.snapshot(of: directory) }) ?? [:])
    }

    private static func snapshot(of directory: URL) -> [String: String] {
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(ReferenceAccountStore.databaseName).path),
              let opened = try? ReferenceAccountStore.open(at: directory), let accounts = try? opened.listAccounts() else { return [:] }
        var snapshot: [String: String] = [:]
        for account in accounts {
            let password = (try? CLIKeyring.credential(of: account.id, in: directory, opened: opened)).map { secret in
                secret.withUnsafeBytes { Data($0).base64EncodedString() }
            } ?? "(no credential)"
            snapshot[account.id.rawValue] = "\(account.metadata) \(password)"
        }
        return snapshot
    }

    /// The stored account with ``linkID``, if any (read on the I/O pool).
    var storedAccount: (id: String, metadata: AccountMetadata)? {
        get async {
            let (database, store) = (databaseFile, self.store)
            return await ((try? blocking { () -> (id: String, metadata: AccountMetadata)? in
                guard FileManager.default.fileExists(atPath: database.path),
                      let opened = try? ReferenceAccountStore.open(at: store),
                      let account = try? opened.listAccounts().first(where: { $0.metadata.linkID.description == Scratch.linkID }) else { return nil }
                return (account.id.rawValue, account.metadata)
            }) ?? nil)
        }
    }

    /// The password the receiver stored for the account with ``linkID``, if any (read on the
    /// I/O pool).
    var storedCredential: Data? {
        get async {
            let (database, store) = (databaseFile, self.store)
            return await ((try? blocking { () -> Data? in
                guard FileManager.default.fileExists(atPath: database.path),
                      let opened = try? ReferenceAccountStore.open(at: store),
                      let account = try? opened.listAccounts().first(where: { $0.metadata.linkID.description == Scratch.linkID }),
                      let secret = try? CLIKeyring.credential(of: account.id, in: store, opened: opened) else { return nil }
                return secret.withUnsafeBytes { Data($0) }
            }) ?? nil)
        }
    }

    /// `send` arguments with the password file, no terminal QR, and `lifetime` seconds: by
    /// default the longest the CLI allows, so that only a test about expiry (which asks for a
    /// short one and waits for the expiry itself) ever meets one, however loaded the machine.
    /// Without the local-authentication gate unless `gated` (then start it with
    /// ``CLIGate/start(_:writing:)``).
    func sendArguments(_ extra: [String] = [], lifetime: Int = Scratch.longestLifetime, gated: Bool = false) -> [String] {
        ["send", "--account", accountFile.path, "--password-file", passwordFile.path, "--lifetime", String(lifetime), "--no-qr"]
            + (gated ? [] : ["--no-local-auth"]) + extra
    }

    /// `receive` arguments for `store` (default: ``store``); the code goes on standard input.
    /// The scratch account's server (imap.example.org) does not exist, so validation is
    /// skipped unless `validated` (the Dovecot tests validate for real).
    func receiveArguments(_ extra: [String] = [], store: URL? = nil, validated: Bool = false, gated: Bool = false) -> [String] {
        ["receive", "--store", (store ?? self.store).path] + (gated ? [] : ["--no-local-auth"])
            + (validated ? [] : ["--no-validation"]) + extra
    }

    /// A transfer code naming 127.0.0.1:9 (where nobody listens) whose expiry is `expiresIn`
    /// seconds from now (negative: in the past).
    static func code(expiresIn seconds: TimeInterval, address: IPv4Address = .loopback, port: UInt16 = 9) throws -> (text: String, payload: SessionPayload) {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Old", emailAddress: "old@example.org",
                                          username: "old", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let lifetime = SenderConfiguration.standard.lifetime
        let rendezvous = try #require(TCPRendezvous(address: address, port: port)).token
        let sender = try HandoffSender.start(account: account, rendezvous: rendezvous, random: SystemRandomSource(),
                                             now: Date().addingTimeInterval(seconds - TimeInterval(lifetime)))
        return (sender.payload.text, sender.payload)
    }

    /// A transfer code that expired 20 minutes ago, naming a loopback port nobody listens on.
    static func expiredCode() throws -> String { try code(expiresIn: -1_200).text }

    /// A fresh, valid transfer code naming a loopback port nobody listens on.
    static func validCode() throws -> (text: String, payload: SessionPayload) { try code(expiresIn: 170) }
}
