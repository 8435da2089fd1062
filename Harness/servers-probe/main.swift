import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffTransitRelay
import Foundation
import SpawnedChild
import ThrowawaySecretService

// Starts every throwaway server of the harness the way a test process does (the Secret
// Service's dbus-daemon and gnome-keyring-daemon, Dovecot, the transit relay) and one
// `handoff receive` waiting for its code (the executable given as the only argument), then
// waits to be killed: the test of what a killed test run leaves behind.
// Prints `ready` and the process IDs of the children it started, tab-separated.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: servers-probe HANDOFF\n".utf8))
    exit(64)
}
do {
    let keyring = try ThrowawaySecretService.sharedForThisProcess()
    let dovecot = try ThrowawayDovecot.start(user: "probe", password: try SecretBytes(utf8: "probe-password"))
    let relay = try TransitRelay.start()
    let store = keyring.directory.appendingPathComponent("store").path
    // Its standard input stays open (this process holds the other end), so it waits for a code.
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { exit(70) }
    let receiver = try SpawnedChild.spawn(CommandLine.arguments[1], ["receive", "--store", store, "--no-local-auth"],
                                          input: .descriptor(ends[0])).get()
    FileHandle.standardOutput.write(Data("ready\t\(getpid())\t\(dovecot.tlsPort)\t\(relay.port)\t\(receiver.pid)\n".utf8))
    while readLine() != nil {}
    withExtendedLifetime((dovecot, relay, receiver, ends)) {}
} catch {
    FileHandle.standardOutput.write(Data("failed\t\(error)\n".utf8))
    exit(1)
}
