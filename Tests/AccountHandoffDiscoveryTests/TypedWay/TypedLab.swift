#if os(Linux)
import AccountHandoff
import AccountHandoffReferenceStore
import AvahiHosts
import Foundation
import Testing

/// The real `handoff` binaries in hosts of ``AvahiHosts`` (each a network namespace with its
/// own Avahi daemon): a sending device in one host, receiving devices in others, the typed way
/// found by DNS-SD (Spec 11.10). Files (the account, the password, the stores) are in a
/// folder of the test's own, which every host sees.
struct TypedLab {
    static let linkID = "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162"
    static let password = "Tr0ub4dor&3-typed-way"
    static let accountJSON = """
        {"accountLinkID": "\(linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
         "username": "ada", "imapHost": "imap.example.org", "imapPort": 993, "imapSecurity": "tls"}
        """
    /// `handoff`'s exit status for a failure (its `ExitCode.failure`).
    static let failureStatus: Int32 = 70
    /// The line that shows the typed code beside the QR.
    static let typedCodePrefix = "Or type this code on the receiving device when 'handoff receive' asks for a code: "

    let hosts: AvahiHosts
    let directory: URL

    init(_ hosts: AvahiHosts) throws {
        self.hosts = hosts
        directory = URL(fileURLWithPath: hosts.directory).appendingPathComponent("typed-lab")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.accountJSON.utf8).write(to: directory.appendingPathComponent("account.json"))
        let passwordFile = directory.appendingPathComponent("password")
        try Data((Self.password + "\n").utf8).write(to: passwordFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
    }

    /// `handoff send` in host `number`, listening on the host's address, no gate, no QR drawn.
    func sender(in number: Int, _ extra: [String] = []) throws -> HostProcess {
        try hosts.run(in: number, try ProbeBinary.path("handoff"),
                      ["send", "--account", directory.appendingPathComponent("account.json").path,
                       "--password-file", directory.appendingPathComponent("password").path, "--address", hosts.host(number).address, "--lan",
                       "--no-local-auth", "--no-qr", "--lifetime", "120"] + extra)
    }

    /// `handoff receive` in host `number` into its own store (credentials in files), no gate, no validation.
    func receiver(in number: Int) throws -> HostProcess {
        try hosts.run(in: number, try ProbeBinary.path("handoff"),
                      ["receive", "--store", store(of: number).path, "--credentials", "files", "--no-local-auth", "--no-validation"])
    }

    /// Once `receiver` (in host `number`) was given a code: it accepts the offer, both ends
    /// complete, and host `number`'s store holds the account (its link ID unchanged) and the password.
    func expectAccepted(by receiver: HostProcess, in number: Int, from sender: HostProcess,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try #require(await receiver.line(containing: "offers this account") != nil, "\(receiver.lines)\n\(sender.lines)",
                     sourceLocation: sourceLocation)
        receiver.send("yes")
        #expect(await receiver.finish() == 0, "\(receiver.lines)", sourceLocation: sourceLocation)
        #expect(await sender.finish() == 0, "\(sender.lines)", sourceLocation: sourceLocation)
        let stored = try await storedAccounts(of: number)
        #expect(stored.map(\.metadata.linkID.description) == [Self.linkID], sourceLocation: sourceLocation)
        #expect(stored.map(\.password) == [Self.password], sourceLocation: sourceLocation)
    }

    func store(of number: Int) -> URL { directory.appendingPathComponent("store-\(number)") }

    /// The accounts host `number`'s store holds, with their passwords (read on the blocking
    /// I/O pool: opening a store blocks).
    func storedAccounts(of number: Int) async throws -> [(metadata: AccountMetadata, password: String)] {
        let folder = store(of: number)
        return try await BlockingIOPool.shared.run { _ throws -> [(metadata: AccountMetadata, password: String)] in
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(ReferenceAccountStore.databaseName).path) else { return [] }
            let opened = try ReferenceAccountStore.open(at: folder)
            return try opened.listAccounts().map { account in
                let secret = try opened.credential(for: account.id)
                defer { secret.wipe() }
                return (account.metadata, secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
            }
        }
    }
}

extension HostProcess {
    /// The typed code the sender shows now (`NNN SSSS SSSC`), from its latest line that shows one.
    func typedCode(after skipping: Int = 0, timeout: Duration = .seconds(30)) async -> String? {
        guard let line = await line(startingWith: TypedLab.typedCodePrefix, after: skipping, timeout: timeout) else { return nil }
        return String(line.dropFirst(TypedLab.typedCodePrefix.count).prefix(13))
    }

}
#endif

#if os(Linux)
extension TypedLab {
    /// A code with `code`'s nameplate and another secret that passes the check digit: what a
    /// device that guesses types (grouped `NNN SSSS SSSC`).
    static func wrongGuess(for code: String, changing position: Int = 5) throws -> String {
        var digits = Array(code.filter(\.isNumber))
        try #require(digits.count == 11)
        digits[position] = Character(String((Int(String(digits[position]))! + 1) % 10))
        for check in 0...9 {
            let candidate = String(digits.prefix(10)) + String(check)
            guard let typed = try? TypedCode(entry: candidate) else { continue }
            defer { typed.wipe() }
            return typed.grouped
        }
        throw WrongGuessImpossible()
    }

    struct WrongGuessImpossible: Error {}
}
#endif

#if os(Linux)
extension HostProcess {
    /// The new typed code a sender shows after a wrong guess retired the one before.
    static let retiredPrefix = "A device tried a code that does not match; this code no longer works. The new code is "

    /// The code of the `count`th retirement line (from 1), or `nil` when none came in time.
    func codeAfterRetirement(_ count: Int, timeout: Duration = .seconds(30)) async -> String? {
        guard await line(startingWith: Self.retiredPrefix, timeout: timeout) != nil else { return nil }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let retired = lines.filter { $0.hasPrefix(Self.retiredPrefix) }
            if retired.count >= count { return String(retired[count - 1].dropFirst(Self.retiredPrefix.count).prefix(13)) }
            _ = await line(containing: Self.retiredPrefix, after: lines.count, timeout: .seconds(1))
        }
        return nil
    }
}
#endif
