// Runs one Secret Service store operation in a process of its own, so a test can point it at
// a bus (through DBUS_SESSION_BUS_ADDRESS in its environment) other than the test process's.
// Not a product; built for the tests only.
//
//   secret-service-probe check NAMESPACE      checkCredentialsWritable()
//   secret-service-probe stage NAMESPACE      stage(the first line of standard input)
//
// Output: "OK" or "ERROR <the error's description>".
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import AccountHandoffSecretService
import Foundation

func finish(_ line: String, status: Int32) -> Never {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, SecretServiceCredentialStore.isValidNamespace(arguments[1]) else {
    finish("ERROR usage: secret-service-probe check|stage NAMESPACE", status: 2)
}
let store = SecretServiceCredentialStore(namespace: arguments[1])
do throws(CredentialStoreError) {
    switch arguments[0] {
    case "check":
        try store.checkCredentialsWritable()
    case "stage":
        let line = readLine(strippingNewline: true) ?? ""
        let secret: SecretBytes
        do { secret = try GuardedCopy.make(Array(line.utf8)) } catch { finish("ERROR guarded memory: \(error)", status: 2) }
        _ = try store.stage(secret)
    default:
        finish("ERROR unknown operation \(arguments[0])", status: 2)
    }
    finish("OK", status: 0)
} catch {
    finish("ERROR \(error.description)", status: 1)
}
