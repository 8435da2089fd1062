import AvahiHosts
import Foundation

// Builds one host of AvahiHosts and waits to be killed: the test of what a killed run leaves.
// Prints `ready`, the hub namespace, the host's namespace and the folder, tab-separated.
#if os(Linux)
do {
    let hosts = try AvahiHosts.start(hostCount: 1)
    FileHandle.standardOutput.write(Data("ready\t\(hosts.hub)\t\(hosts.host(1).namespace)\t\(hosts.directory)\n".utf8))
    while readLine() != nil {}
    hosts.stop()
} catch {
    FileHandle.standardOutput.write(Data("failed\t\(error)\n".utf8))
    exit(1)
}
#endif
