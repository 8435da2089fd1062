#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HandoffCLI
import AccountHandoff
import Foundation

/// The demo's scratch directory (mode 0700): a demo account file and a password file holding
/// a fresh random password that is never printed.
struct DemoFiles {
    let directory: URL
    let accountFile: URL
    let passwordFile: URL
    let account: AccountMetadata
    /// The demo password, kept in guarded memory to check what the receiver stored.
    let password: SecretBytes

    static let passwordLength = 24

    /// Where the demo account's mail server is: a throwaway local Dovecot, or the example
    /// server that does not exist when none could be started.
    struct MailServer {
        let host: String
        let port: UInt16
        static let example = MailServer(host: "imap.example.org", port: 993)
    }

    /// Creates the scratch directory and the random password (the mail server comes later).
    static func create() throws(CLIError) -> DemoFiles {
        try create(server: .example)
    }

    /// The demo account pointing at `server`, with a new account file (same password).
    func pointing(at server: MailServer) throws(CLIError) -> DemoFiles {
        let account: AccountMetadata
        do {
            account = try AccountMetadata(linkID: self.account.linkID, displayName: "Demo Account", emailAddress: "demo@example.org",
                                          username: "demo", imapHost: server.host, imapPort: server.port, imapSecurity: .tls)
        } catch {
            throw CLIError(error.description, exitCode: .failure)
        }
        try Self.writeAccount(account, to: accountFile)
        return DemoFiles(directory: directory, accountFile: accountFile, passwordFile: passwordFile, account: account, password: password)
    }

    private static func writeAccount(_ account: AccountMetadata, to url: URL) throws(CLIError) {
        do {
            let data = try JSONEncoder.sorted.encode(AccountRecord(account))
            try data.write(to: url)
        } catch {
            throw CLIError("Cannot write the demo account file in \(url.deletingLastPathComponent().path).", exitCode: .failure)
        }
    }

    private static func create(server: MailServer) throws(CLIError) -> DemoFiles {
        var template = Array((FileManager.default.temporaryDirectory.path + "/handoff-demo-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CLIError("Cannot create a temporary directory for the demo; check that the temporary directory is writable.", exitCode: .failure)
        }
        let directory = URL(fileURLWithPath: String(cString: created))
        let account: AccountMetadata
        do {
            account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Demo Account",
                                          emailAddress: "demo@example.org", username: "demo",
                                          imapHost: server.host, imapPort: server.port, imapSecurity: .tls)
        } catch {
            throw CLIError(error.description, exitCode: .failure)
        }
        let accountFile = directory.appendingPathComponent("account.json")
        try writeAccount(account, to: accountFile)
        let passwordFile = directory.appendingPathComponent("password")
        let password = try writeRandomPassword(to: passwordFile)
        return DemoFiles(directory: directory, accountFile: accountFile, passwordFile: passwordFile, account: account, password: password)
    }

    /// Draws a random password of letters and digits into a buffer that is wiped afterwards,
    /// writes it to a new 0600 file and returns it in guarded memory.
    private static func writeRandomPassword(to url: URL) throws(CLIError) -> SecretBytes {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: passwordLength)
        buffer.initialize(repeating: 0)
        defer {
            buffer.update(repeating: 0)
            buffer.deallocate()
        }
        SystemRandomSource().fill(UnsafeMutableRawBufferPointer(buffer))
        for index in buffer.indices { buffer[index] = alphabet[Int(buffer[index]) % alphabet.count] }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0, write(descriptor, buffer.baseAddress, buffer.count) == buffer.count else {
            if descriptor >= 0 { close(descriptor) }
            throw CLIError("Cannot write the demo password file in \(url.deletingLastPathComponent().path).", exitCode: .failure)
        }
        close(descriptor)
        do { return try SecretBytes(copying: UnsafeRawBufferPointer(buffer)) } catch {
            throw CLIError(error.description, exitCode: .failure)
        }
    }

    /// Removes the scratch directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

extension JSONEncoder {
    /// Pretty, key-sorted JSON.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }
}
