// Claims one QR in one receiver registry file, so a test can start several at once on the
// same file (Spec 6.3: a QR works once per device, across processes). Not a product; built
// for the tests only.
//
//   registry-claim-probe [--from-task] REGISTRY-FILE
//
// Standard input: the QR payload text (AH:...) on the first line; the claim is made when the
// second line ("go") arrives, so a test can release every probe at the same moment.
// Output: "CLAIMED", "REFUSED <error identifier>" or "ERROR <sentence>".
//
// With --from-task the registry is opened and the claim made inside a Swift task, where
// blocking is not allowed: a debug build stops at the first blocking call (the blocking-call
// check), which is what the test of that check expects.
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

/// The registry kept in `path`; the probe ends when it cannot be read.
func openRegistry(_ path: String) -> ReceiverRegistry {
    do { return try ReceiverRegistry(storage: FileRegistryStorage(path: path)) } catch { finish("REFUSED \(error.identifier)", status: 1) }
}

/// Scans `payload` with `registry`, which claims it, and ends the probe with the result.
func claim(_ payload: SessionPayload, in registry: ReceiverRegistry) -> Never {
    do {
        _ = try HandoffReceiver.scan(payload: payload, random: SystemRandomSource(), now: Date(), registry: registry)
        finish("CLAIMED", status: 0)
    } catch {
        finish("REFUSED \(error.identifier)", status: 1)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let fromTask = arguments.first == "--from-task"
if fromTask { arguments.removeFirst() }
guard arguments.count == 1, let path = arguments.first else { finish("ERROR usage: registry-claim-probe [--from-task] REGISTRY-FILE", status: 2) }
guard let text = readLine(strippingNewline: true) else { finish("ERROR no payload on standard input", status: 2) }
let payload: SessionPayload
do { payload = try SessionPayload(text: text) } catch { finish("REFUSED \(error.identifier)", status: 1) }
let registry = fromTask ? nil : openRegistry(path)
guard readLine(strippingNewline: true) == "go" else { finish("ERROR no go line", status: 2) }
if let registry { claim(payload, in: registry) }
let (scanned, file) = (payload, path)
Task.detached { claim(scanned, in: openRegistry(file)) }
while true { pause() }
