import AvahiHosts
import Foundation

// Builds one host of AvahiHosts, starts a program in it, and waits to be killed: the test of
// what a killed run leaves.
// Prints `ready`, the hub namespace, the host's namespace and the folder, tab-separated.
#if os(Linux)
do {
    let hosts = try AvahiHosts.start(hostCount: 1)
    // A program in the host, as a test runs them: it must die with the host too.
    let program = try hosts.run(in: 1, "/bin/sleep", ["1000"])
    FileHandle.standardOutput.write(Data("ready\t\(hosts.hub)\t\(hosts.host(1).namespace)\t\(hosts.directory)\n".utf8))
    while readLine() != nil {}
    program.closeInput()
    hosts.stop()
} catch {
    FileHandle.standardOutput.write(Data("failed\t\(error)\n".utf8))
    exit(1)
}
#endif
