// Claims one QR in one receiver registry file, so a test can start several at once on the
// same file (Spec 6.3: a QR works once per device, across processes). Not a product; built
// for the tests only.
//
//   registry-claim-probe REGISTRY-FILE
//
// Standard input: the QR payload text (AH:...) on the first line; the claim is made when the
// second line ("go") arrives, so a test can release every probe at the same moment.
// Output: "CLAIMED", "REFUSED <error identifier>" or "ERROR <sentence>".
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

func finish(_ line: String, status: Int32) -> Never {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first else { finish("ERROR usage: registry-claim-probe REGISTRY-FILE", status: 2) }
guard let text = readLine(strippingNewline: true) else { finish("ERROR no payload on standard input", status: 2) }
do {
    let payload = try SessionPayload(text: text)
    let registry = try ReceiverRegistry(storage: FileRegistryStorage(path: path))
    guard readLine(strippingNewline: true) == "go" else { finish("ERROR no go line", status: 2) }
    _ = try HandoffReceiver.scan(payload: payload, random: SystemRandomSource(), now: Date(), registry: registry)
    finish("CLAIMED", status: 0)
} catch {
    finish("REFUSED \(error.identifier)", status: 1)
}
