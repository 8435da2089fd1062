// Runs one import into a reference store and stops at a named transaction point, so a test
// can kill it there with SIGKILL. Not a product; built for the tests only.
//
//   import-crash-probe --store DIR --scenario replace|add|keepBoth|validationFailure
//                      --stop-at POINT --host HOST --port PORT --user USER --ca CA.pem
//                      [--credentials files|keyring --namespace NAMESPACE]
//
// With --credentials keyring the credentials go to the Secret Service on the session bus in
// DBUS_SESSION_BUS_ADDRESS (the test's throwaway keyring), items in NAMESPACE.
// The delivered password is read from standard input (one line), never from arguments.
// Output: "STOPPED <point>" (then the process waits to be killed), or "FINISHED <receipt>"
// when the import ended without reaching the point, or "ERROR <sentence>".
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import Foundation

/// Writes one line to standard output at once (unbuffered), so the test sees it before the kill.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    say("ERROR \(message)")
    exit(2)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let name = arguments.next() {
    guard name.hasPrefix("--"), let value = arguments.next() else { fail("bad argument \(name)") }
    options[String(name.dropFirst(2))] = value
}
guard let store = options["store"], let scenarioName = options["scenario"], let scenario = ImportScenario(rawValue: scenarioName),
      let pointName = options["stop-at"], let stopPoint = TransactionPoint(rawValue: pointName),
      let host = options["host"], let portText = options["port"], let port = UInt16(portText),
      let user = options["user"], let ca = options["ca"] else {
    fail("missing or invalid arguments")
}
let backend: CredentialBackend
switch options["credentials"] ?? "files" {
case "files": backend = .files
case "keyring":
    guard let namespace = options["namespace"], SecretServiceCredentialStore.isValidNamespace(namespace) else { fail("--namespace is needed") }
    backend = .keyring(namespace: namespace)
default: fail("--credentials takes files or keyring")
}
guard let passwordLine = readLine(strippingNewline: true) else { fail("no password on standard input") }

let stopAtPoint: Interposer = { reached in
    guard reached == stopPoint else { return nil }
    say("STOPPED \(reached.rawValue)")
    while true { pause() }
}

do {
    let password = try GuardedCopy.make(Array(passwordLine.utf8))
    // Opening the store and preparing block (files, SQLite, the keyring): on the I/O pool, as an app does.
    let stores = try await BlockingIOPool.shared.run { _ in
        try InterposingStore(directory: URL(fileURLWithPath: store), backend: backend, interposer: stopAtPoint)
    }
    let validator = IMAPValidator(configuration: IMAPValidatorConfiguration(trust: .certificateAuthorityFile(URL(fileURLWithPath: ca))))
    let coordinator = ImportCoordinator(metadataStore: stores, credentialStore: stores,
                                        validator: InterposingValidator(base: validator, interposer: stopAtPoint),
                                        makeAccountID: { ImportScenario.newAccountID })
    let offer = try ImportScenario.offer(host: host, port: port, user: user)
    let prepared = try await BlockingIOPool.shared.run { _ in try coordinator.prepare(offer: offer) }
    if let choice = scenario.choice { try prepared.choose(choice) }
    let outcome = await prepared.complete(metadata: offer, credential: password)
    say("FINISHED \(outcome.receiptStatus)")
} catch {
    fail("\(error)")
}
