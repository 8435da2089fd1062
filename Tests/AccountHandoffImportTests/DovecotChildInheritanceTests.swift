import Foundation
import SpawnedChild
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import TestProcesses
#endif

/// The harness's servers (the throwaway Dovecot, the transit relay) are started by `posix_spawn` while other threads of the same process
/// start programs and open sockets. A descriptor without close-on-exec that is open at that
/// moment (Foundation's `Process` keeps one such socket per child while it starts it, and
/// watches it to learn that the child exited) must not reach the server: Dovecot would hold it
/// for its whole life, and the `Process` would not see its own child exit until then. One CLI
/// test waited 20 s for a child that had long exited.
@Suite(.startsProcesses) struct DovecotChildInheritanceTests {
    @Test func aStartedProgramInheritsOnlyItsStandardStreams() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        // The attacker's precondition: these are open and would survive an exec.
        for end in ends { try #require(fcntl(end, F_GETFD) & FD_CLOEXEC == 0) }

        // The shell exits 0 only when one of them is open in it.
        let probe = ends.map { "[ -e /dev/fd/\($0) ]" }.joined(separator: " || ")
        let child: SpawnedChild
        switch SpawnedChild.spawn("/bin/sh", ["-c", "if \(probe); then exit 0; else exit 3; fi"]) {
        case .success(let started): child = started
        case .failure(let error): Issue.record("could not start /bin/sh: \(error)"); return
        }
        #expect(child.waitForExit(timeout: .seconds(10)))
        #expect(child.terminationStatus == 3)
    }
}
