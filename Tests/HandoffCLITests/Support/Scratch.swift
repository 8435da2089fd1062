import AccountHandoff
import Foundation

/// A per-test directory with an account file, a password file (mode 0600) and store paths.
struct Scratch {
    let directory: URL
    var accountFile: URL { directory.appendingPathComponent("account.json") }
    var passwordFile: URL { directory.appendingPathComponent("password") }
    /// The receiving device's store.
    var store: URL { directory.appendingPathComponent("store") }
    /// Another device's store (a second receiving device in a race).
    var otherStore: URL { directory.appendingPathComponent("other-store") }
    var metadataFile: URL { store.appendingPathComponent("\(Scratch.linkID).json") }
    var credentialFile: URL { store.appendingPathComponent("\(Scratch.linkID).credential") }

    static let linkID = "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162"
    static let accountJSON = """
        {"accountLinkID": "\(linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
         "username": "ada", "imapHost": "imap.example.org", "imapPort": 993, "imapSecurity": "tls"}
        """
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

    /// File names and contents of a store, to prove it did not change (the registry file
    /// aside, which a scan writes).
    func storeSnapshot(_ store: URL? = nil) -> [String: Data] {
        let directory = store ?? self.store
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var snapshot: [String: Data] = [:]
        for name in names where name != Self.registryFileName {
            snapshot[name] = try? Data(contentsOf: directory.appendingPathComponent(name))
        }
        return snapshot
    }

    /// The password the receiver stored, if any.
    var storedCredential: Data? { try? Data(contentsOf: credentialFile) }

    /// `send` arguments with the password file, no terminal QR, and `lifetime` seconds.
    func sendArguments(_ extra: [String] = [], lifetime: Int = 60) -> [String] {
        ["send", "--account", accountFile.path, "--password-file", passwordFile.path, "--lifetime", String(lifetime), "--no-qr"] + extra
    }

    /// `receive` arguments for `store` (default: ``store``); the code goes on standard input.
    func receiveArguments(_ extra: [String] = [], store: URL? = nil) -> [String] {
        ["receive", "--store", (store ?? self.store).path] + extra
    }

    /// A transfer code naming 127.0.0.1:9 (where nobody listens) whose expiry is `expiresIn`
    /// seconds from now (negative: in the past).
    static func code(expiresIn seconds: TimeInterval, port: UInt16 = 9, tag: [UInt8] = [1, 2, 3, 4, 5, 6]) throws -> (text: String, payload: SessionPayload) {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Old", emailAddress: "old@example.org",
                                          username: "old", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let lifetime = SenderConfiguration.standard.lifetime
        let rendezvous = try RendezvousToken(bytes: [UInt8(port >> 8), UInt8(port & 0xFF)] + tag)
        let sender = try HandoffSender.start(account: account, rendezvous: rendezvous, random: SystemRandomSource(),
                                             now: Date().addingTimeInterval(seconds - TimeInterval(lifetime)))
        return (sender.payload.text, sender.payload)
    }

    /// A transfer code that expired 20 minutes ago, naming a loopback port nobody listens on.
    static func expiredCode() throws -> String { try code(expiresIn: -1_200).text }

    /// A fresh, valid transfer code naming a loopback port nobody listens on.
    static func validCode() throws -> (text: String, payload: SessionPayload) { try code(expiresIn: 170) }
}
