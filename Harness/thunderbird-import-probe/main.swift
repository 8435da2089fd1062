// Runs one Thunderbird profile operation in a process of its own, so a test can kill it at a
// named import step, run it without the power to ignore file permissions, or inside a mount
// namespace with a full disk. Not a product; built for the tests only.
//
//   thunderbird-import-probe import --profile DIR --host HOST --port PORT --user USER --email EMAIL
//                            [--security tls|starttls] [--choice replace|keep] [--stop-at STEP] [--ca CA.pem]
//   thunderbird-import-probe check --profile DIR
//   thunderbird-import-probe read --profile DIR [--email EMAIL]
//
// The password (import) or the expected password (read) is the first line of standard input,
// never an argument. A primary password, when the profile needs one, is the second line.
// Output: "STOPPED <step>" (then the process waits to be killed), "FINISHED <receipt> <sentence>",
// "CHECKED <rolledBack|abandoned:FILES|clean> <number of accounts>", "READ <account> PASSWORD MATCHES|DIFFERS",
// or "ERROR <sentence>".
import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffTestSupport
import AccountHandoffThunderbird
import Foundation

var arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.popFirst() else { ProbeCommandLine.fail("no command") }
let options = ProbeCommandLine.options(arguments)
guard let profilePath = options["profile"] else { ProbeCommandLine.fail("--profile is needed") }
let profile = ThunderbirdProfile(name: URL(fileURLWithPath: profilePath).lastPathComponent, directory: URL(fileURLWithPath: profilePath))

/// A line of standard input in guarded memory; `nil` at its end.
func secretLine() -> SecretBytes? {
    guard let line = readLine(strippingNewline: true), !line.isEmpty else { return nil }
    return try? SecretBytes(copying: Array(line.utf8))
}

struct NoValidation: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .notChecked }
}

switch command {
case "import":
    guard let host = options["host"], let port = options["port"].flatMap(UInt16.init), let user = options["user"],
          let email = options["email"] else { ProbeCommandLine.fail("--host, --port, --user and --email are needed") }
    let security: IMAPSecurity = options["security"] == "starttls" ? .startTLS : .tls
    let linkID = AccountLinkID(uuid: UUID(uuidString: options["link"] ?? "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162")!)
    let stopAt = options["stop-at"].flatMap(ImportStep.init(rawValue:))
    guard let password = secretLine() else { ProbeCommandLine.fail("no password on standard input") }
    let offer: AccountMetadata
    do {
        offer = try AccountMetadata(linkID: linkID, displayName: "Ada Lovelace", emailAddress: email, username: user,
                                    imapHost: host, imapPort: port, imapSecurity: security)
    } catch { ProbeCommandLine.fail("\(error)") }
    let validator: any AccountValidator = options["ca"].map {
        IMAPValidator(configuration: IMAPValidatorConfiguration(trust: .certificateAuthorityFile(URL(fileURLWithPath: $0))))
    } ?? NoValidation()
    let importer = ThunderbirdImporter(profile: profile, validator: validator, hook: { step in
        guard step == stopAt else { return nil }
        ProbeCommandLine.stop(at: step.rawValue)
    })
    if let primary = secretLine() { importer.usePrimaryPassword(primary) }
    do {
        let prepared = try await importer.prepare(offer)
        switch options["choice"] {
        case "replace"?:
            guard let replace = prepared.allowedChoices.first(where: { if case .replace = $0 { true } else { false } }) else {
                ProbeCommandLine.fail("no account to replace")
            }
            try prepared.choose(replace)
        case "keep"?: try prepared.choose(.keepBoth)
        default: break
        }
        let outcome = await prepared.complete(metadata: offer, credential: password)
        await importer.waitUntilReleased()
        ProbeCommandLine.say("FINISHED \(outcome.receiptStatus) \(outcome.message)")
    } catch let error as ThunderbirdProfileError {
        ProbeCommandLine.fail(error.description)
    } catch {
        ProbeCommandLine.fail("\(error)")
    }
case "check":
    let importer = ThunderbirdImporter(profile: profile, validator: NoValidation())
    if let primary = secretLine() { importer.usePrimaryPassword(primary) }
    do {
        let check = try await importer.check()
        let state = check.undidInterruptedImport ? "rolledBack"
            : check.filesChangedAfterInterruptedImport.isEmpty ? "clean" : "abandoned:" + check.filesChangedAfterInterruptedImport.joined(separator: ",")
        await importer.waitUntilReleased()
        ProbeCommandLine.say("CHECKED \(state) \(check.accountAddresses.count)")
    } catch {
        ProbeCommandLine.fail(error.description)
    }
case "read":
    guard let expected = secretLine() else { ProbeCommandLine.fail("no password on standard input") }
    do {
        let account = try await ThunderbirdAccountSource.account(in: profile, emailAddress: options["email"], primaryPassword: secretLine())
        ProbeCommandLine.say("READ \(account.metadata) PASSWORD \(account.password.constantTimeEquals(expected) ? "MATCHES" : "DIFFERS")")
    } catch {
        ProbeCommandLine.fail(error.description)
    }
default:
    ProbeCommandLine.fail("unknown command \(command)")
}
