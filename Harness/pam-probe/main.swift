// Runs PAMAuthenticator once with a scripted conversation, for tests under pam_wrapper
// (LD_PRELOAD must be set when a process starts, hence a process of its own). Not a product.
//
//   pam-probe [--service NAME] [--tries N] [--uid N] [--cancel-task-at-prompt N] [--gate device-owner]
//   pam-probe --check-login-password yes [--service NAME] [--uid N]
//
// Answers come from standard input, one line per question, never from arguments or the
// environment (both are readable by other users); the end of input is the person
// cancelling. With --gate device-owner the authenticator is DeviceOwnerGate (service handoff,
// 3 tries) instead. With --cancel-task-at-prompt N, the N-th prompt cancels the authenticating
// task and is then answered anyway (a conversation that ignores the cancel).
//
// With --check-login-password, it only checks what the service would check, asks nothing,
// and prints `check <user> <unusable entry: *, !, empty, or none>`.
//
// Output, one line each, in order:
//   prompt secret|text|error|info <the prompt's text>
//   exposed none|argv|environment   (whether an answer read appears in this process's
//                                    /proc/self/cmdline or /proc/self/environ)
//   result authenticated | result cancelled | result failed notRecognized
//   | result failed lockedOut | result failed unavailable <detail>
#if canImport(Glibc)
import AccountHandoff
import AccountHandoffLocalAuthentication
import Foundation
import Glibc

/// Writes one line to standard output at once.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    say("error \(message)")
    exit(2)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let name = arguments.next() {
    guard name.hasPrefix("--"), let value = arguments.next() else { fail("bad argument \(name)") }
    options[String(name.dropFirst(2))] = value
}
let configuration = PAMAuthenticatorConfiguration(serviceName: options["service"] ?? PAMAuthenticatorConfiguration.defaultServiceName,
                                                  maximumTries: options["tries"].flatMap(Int.init) ?? 3)
let userID = options["uid"].flatMap(uid_t.init)
let cancelAtPrompt = options["cancel-task-at-prompt"].flatMap(Int.init)

let conversation = ScriptedConversation(cancelAtPrompt: cancelAtPrompt)
let authenticator: any LocalAuthenticator
if options["gate"] == "device-owner" {
    // The gate an app writes on every platform: its password questions go to the same script.
    authenticator = DeviceOwnerGate { question, purpose in
        guard case .secret(let answer)? = await conversation.answer(.secret(question), for: purpose) else { return nil }
        return answer
    }
} else {
    authenticator = PAMAuthenticator(configuration: configuration, conversation: conversation, userID: userID)
}
let account = try AccountMetadata(
    linkID: AccountLinkID(uuid: UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")!), displayName: "Ada Lovelace",
    emailAddress: "ada@example.org", username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
if options["check-login-password"] == "yes" {
    let check = await PAMAuthenticator(configuration: configuration, conversation: conversation, userID: userID).checkLoginPassword()
    say("check \(check.user) \(check.unusableEntry.map { $0 == .empty ? "empty" : $0.rawValue } ?? "none")")
    exit(0)
}
let task = Task { await authenticator.authenticate(for: .sendCredential(account, receiverGate: .asks)) }
let result = await task.value
say("exposed \(conversation.exposure)")
switch result {
case .authenticated: say("result authenticated")
case .cancelled: say("result cancelled")
case .failed(.notRecognized): say("result failed notRecognized")
case .failed(.lockedOut): say("result failed lockedOut")
case .failed(.unavailable(let detail)): say("result failed unavailable \(detail)")
}
#else
print("pam-probe runs on Linux only.")
#endif
