import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// A per-test directory with an account file, a password file and a store path.
struct Scratch {
    let directory: URL
    var accountFile: URL { directory.appendingPathComponent("account.json") }
    var passwordFile: URL { directory.appendingPathComponent("password") }
    var store: URL { directory.appendingPathComponent("store") }

    static let linkID = "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162"
    static let accountJSON = """
        {"accountLinkID": "\(linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
         "username": "ada", "imapHost": "imap.example.org", "imapPort": 993, "imapSecurity": "tls"}
        """

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

    /// File names and contents of the store, to prove it did not change.
    func storeSnapshot() -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
        var snapshot: [String: Data] = [:]
        for name in names { snapshot[name] = try? Data(contentsOf: store.appendingPathComponent(name)) }
        return snapshot
    }

    /// `send` arguments with the password file and a short lifetime, no terminal QR.
    func sendArguments(_ extra: [String] = []) -> [String] {
        ["send", "--account", accountFile.path, "--password-file", passwordFile.path, "--lifetime", "30", "--no-qr"] + extra
    }

    func receiveArguments(_ code: String, _ extra: [String] = []) -> [String] {
        ["receive", code, "--store", store.path] + extra
    }

    /// A transfer code that expired 20 minutes ago, naming a loopback port nobody listens on.
    static func expiredCode() throws -> String {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Old", emailAddress: "old@example.org",
                                          username: "old", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let sender = try HandoffSender.start(account: account, rendezvous: RendezvousToken(bytes: [0, 9, 1, 2, 3, 4, 5, 6]),
                                             random: InsecureDeterministicRandom(seed: 42), now: Date().addingTimeInterval(-1_380))
        return sender.payload.text
    }

    /// A fresh, valid transfer code naming a loopback port nobody listens on.
    static func validCode() throws -> (text: String, payload: SessionPayload) {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "New", emailAddress: "new@example.org",
                                          username: "new", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let sender = try HandoffSender.start(account: account, rendezvous: RendezvousToken(bytes: [0, 9, 1, 2, 3, 4, 5, 6]),
                                             random: SystemRandomSource(), now: Date())
        return (sender.payload.text, sender.payload)
    }
}
