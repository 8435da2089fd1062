#if os(Linux)
import AccountHandoff
import AvahiHosts
import Foundation
import Testing
import TestProcesses

/// An attacker that announces the honest sender's nameplate on DNS-SD (Spec 11.10, security
/// 8.8): the receiving device sees two devices and refuses before any connection, so the
/// attacker gets no connection and no guess, and the same code still works once the attacker
/// is gone. Real `handoff` binaries and Avahi daemons in `ip netns` hosts; slow.
@Suite(.startsProcesses, .enabled(if: AvahiHosts.unavailableReason == nil, Comment(rawValue: AvahiHosts.unavailableReason ?? "")), .timeLimit(.minutes(10)),
       .serialized)
struct TypedNameplateAttackTests {
    @Test(.slowSlice)
    func anAttackerShowingTheSameNameplateGetsNothingAndTheCodeStillWorks() async throws {
        // The receiver (host 2) is on both segments; the sender (host 1) and the attacker
        // (host 3) each on one, so mDNS probing cannot make one of them rename: both announce.
        try await withAvahiHosts(3, segments: [[1, 2], [2, 3]]) { hosts in
            let lab = try TypedLab(hosts)
            let sender = try lab.sender(in: 1)
            let code = try #require(await sender.typedCode(), "no typed code: \(sender.lines)")
            let nameplate = String(code.prefix(3))
            // The attacker saw the nameplate (it is public) and listens for whoever comes.
            let trap = try hosts.run(in: 3, "/usr/bin/python3", ["-u", "-c", """
                import socket
                s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("0.0.0.0", 4444)); s.listen(8)
                print("listening", flush=True)
                while True:
                    c, a = s.accept(); print("accepted", a[0], flush=True)
                """])
            #expect(await trap.line(containing: "listening") != nil, "\(trap.lines)")
            let attacker = try hosts.run(in: 3, "/usr/bin/avahi-publish",
                                         ["--service", "AccountHandoff \(nameplate)", "_accounthandoff._tcp", "4444", "v=4", "np=\(nameplate)"])
            try #require(await attacker.line(containing: "Established under name") != nil, "\(attacker.lines)")

            let receiver = try lab.receiver(in: 2)
            receiver.send(code)
            #expect(await receiver.finish() == TypedLab.failureStatus, "\(receiver.lines)")
            #expect(receiver.lines.last == TypedSearchSentences.ambiguous(nameplate, devices: 2), "\(receiver.lines)")
            #expect(!receiver.lines.contains { $0.hasPrefix("Found it") })
            #expect(trap.lines == ["listening"])
            #expect(!sender.lines.contains { $0.hasPrefix(HostProcess.retiredPrefix) }, "\(sender.lines)")

            // Gone: the same code (never used: nothing was sent) moves the account.
            attacker.send(signal: SIGTERM)
            _ = await attacker.finish()
            let again = try lab.receiver(in: 2)
            again.send(code)
            try await lab.expectAccepted(by: again, in: 2, from: sender)
            #expect(trap.lines == ["listening"])
            trap.send(signal: SIGKILL)
        }
    }
}
#endif
