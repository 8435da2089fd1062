#if os(Linux)
import AvahiHosts
import Foundation
import Testing
import TestProcesses

/// The Avahi adapter against real Avahi daemons, each in a host of its own (a network
/// namespace with its own D-Bus system bus; see ``AvahiHosts``), cross-checked with Avahi's own
/// `avahi-browse` and with `dig` asking the sender's mDNS responder directly. One test at a
/// time: each starts two or three hosts' daemons, and all at once, in the whole `swift test` on
/// a small loaded machine, they coincided with CLI tests outliving their codes.
@Suite(.startsProcesses, .enabled(if: AvahiHosts.unavailableReason == nil, Comment(rawValue: AvahiHosts.unavailableReason ?? "")), .timeLimit(.minutes(10)),
       .serialized)
struct AvahiDiscoveryTests {
    @Test func anAdvertisementIsFoundWithItsAddressPortAndTXTRecord() async throws {
        try await withAvahiHosts(2) { hosts in
            let sender = try hosts.probe(in: 1, "advertise", "427", "40123")
            // Services of the same type that are not this nameplate's are not even resolved.
            let others = try ["AccountHandoff 428", "Printer 427"].map { name in
                try hosts.run(in: 1, "/usr/bin/avahi-publish", ["--service", name, "_accounthandoff._tcp", "4444", "v=4", "np=428"])
            }
            #expect(await sender.expectLine("established") == "established\t427")
            for other in others { #expect(await other.expectLine("Established under name") != nil) }

            let receiver = try hosts.probe(in: 2, "browse", "427", browsingTime)
            #expect(await receiver.finish() == 0)
            let found = receiver.lines.filter { $0.hasPrefix("found\t") }.map { $0.split(separator: "\t").map(String.init) }
            // found, name, interface index (the host's own numbering), address, port, TXT strings.
            #expect(found.map { [$0[1]] + $0.dropFirst(3) } == [["AccountHandoff 427", "10.90.0.1", "40123", "v=4,np=427"]], "\(receiver.lines)")
            #expect(receiver.lines.last == "decision\t427\tconnect\t10.90.0.1\t40123")

            // Avahi's own client in host 2 resolves the same service.
            let browse = try hosts.run(in: 2, "/usr/bin/avahi-browse", ["--resolve", "--parsable", "--terminate", "_accounthandoff._tcp"])
            #expect(await browse.finish() == 0)
            let resolved = browse.lines.filter { $0.hasPrefix("=;") && $0.contains(";AccountHandoff\\032427;") }
            #expect(resolved.count == 1, "\(browse.lines)")
            let fields = resolved.first?.split(separator: ";", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(Array(fields.dropFirst(2).prefix(8)) == ["IPv4", "AccountHandoff\\032427", "_accounthandoff._tcp", "local",
                                                             "handoff-host1.local", "10.90.0.1", "40123", fields.last ?? ""])
            #expect(Set(fields.last?.split(separator: " ").map(String.init) ?? []) == ["\"v=4\"", "\"np=427\""])

            // The record on the wire, in its order, straight from host 1's responder.
            let dig = try hosts.run(in: 2, "/usr/bin/dig", ["+short", "+tries=2", "+time=2", "@10.90.0.1", "-p", "5353",
                                                            "AccountHandoff\\032427._accounthandoff._tcp.local", "TXT"])
            #expect(await dig.finish() == 0)
            #expect(dig.lines == ["\"v=4\" \"np=427\""])
            sender.closeInput()
            #expect(await sender.finish() == 0)
        }
    }

    @Test(.slowSlice) func aSecondAdvertiserOfTheSameNameCollidesAndDrawsAnotherNameplate() async throws {
        try await withAvahiHosts(3) { hosts in
            let first = try hosts.probe(in: 1, "advertise", "427", "40123")
            #expect(await first.expectLine("established") == "established\t427")

            let second = try hosts.probe(in: 3, "advertise", "427", "40124", "512")
            #expect(await second.expectLine("established") == "established\t512")
            #expect(second.lines.filter { !$0.hasPrefix("drew") } == ["registering\t427", "collided\t427", "registering\t512", "established\t512"])

            let receiver = try hosts.probe(in: 2, "browse", "427,512", browsingTime)
            #expect(await receiver.finish() == 0)
            #expect(receiver.lines.suffix(2) == ["decision\t427\tconnect\t10.90.0.1\t40123", "decision\t512\tconnect\t10.90.0.3\t40124"])
            #expect(first.lines == ["registering\t427", "established\t427"], "the first advertiser keeps its name")
        }
    }

    /// mDNS probing is the sender's defence: a device that claims the nameplate first (here
    /// with Avahi's own `avahi-publish`) makes the honest sender retire that code before it is
    /// ever shown, so the code the person sees and types leads only to the honest sender.
    @Test(.slowSlice) func anAttackerAdvertisingTheNameplateFirstMakesTheHonestSenderMoveOn() async throws {
        try await withAvahiHosts(3) { hosts in
            let attacker = try hosts.run(in: 3, "/usr/bin/avahi-publish",
                                         ["--service", "AccountHandoff 427", "_accounthandoff._tcp", "4444", "v=4", "np=427"])
            #expect(await attacker.expectLine("Established under name") == "Established under name 'AccountHandoff 427'")

            let honest = try hosts.probe(in: 1, "advertise", "427", "40123", "512")
            #expect(await honest.expectLine("established") == "established\t512")
            #expect(!honest.lines.contains("established\t427"), "the honest sender never shows the taken nameplate")

            let receiver = try hosts.probe(in: 2, "browse", "512", browsingTime)
            #expect(await receiver.finish() == 0)
            #expect(receiver.lines.last == "decision\t512\tconnect\t10.90.0.1\t40123")
        }
    }

    /// Every name the sender draws is taken (by Avahi's own `avahi-publish` in another
    /// host): after the first and eight new codes collide, the typed way is withdrawn. Nine
    /// rounds of mDNS probing take about 10 s, so it runs in the slow slice (`SenderAdvertisingTests`
    /// checks the limit itself in `swift test`).
    @Test(.slowSlice)
    func aSenderWhoseNamesAreAllTakenGivesUpAfterEightRedraws() async throws {
        try await withAvahiHosts(2) { hosts in
            let taken = (100...108).map { String($0) }
            var squatters: [HostProcess] = []
            for nameplate in taken {
                squatters.append(try hosts.run(in: 2, "/usr/bin/avahi-publish",
                                               ["--service", "AccountHandoff \(nameplate)", "_accounthandoff._tcp", "4444", "v=4", "np=\(nameplate)"]))
            }
            for squatter in squatters { #expect(await squatter.expectLine("Established under name") != nil) }

            let sender = try hosts.probe(in: 1, "advertise", "100", "40123", taken.dropFirst().joined(separator: ","))
            #expect(await sender.finish(timeout: .seconds(60)) == 3)
            #expect(sender.lines.filter { $0.hasPrefix("collided") } == taken.map { "collided\t\($0)" })
            #expect(sender.lines.last == "stopped\tnamesTaken\t9")
            #expect(!sender.lines.contains { $0.hasPrefix("established") })
        }
    }

    /// A receiver on two networks, each with a device that shows the same nameplate (no
    /// collision between them: mDNS names are per link), refuses before any run.
    @Test(.slowSlice) func aBrowserThatSeesTheNameplateFromTwoHostsReportsAmbiguous() async throws {
        try await withAvahiHosts(3, segments: [[1, 2], [2, 3]]) { hosts in
            let left = try hosts.probe(in: 1, "advertise", "427", "40123")
            let right = try hosts.probe(in: 3, "advertise", "427", "40124")
            #expect(await left.expectLine("established") == "established\t427")
            #expect(await right.expectLine("established") == "established\t427")

            let receiver = try hosts.probe(in: 2, "browse", "427", browsingTime)
            #expect(await receiver.finish() == 0)
            #expect(receiver.lines.filter { $0.hasPrefix("found\tAccountHandoff 427\t") }.count == 2, "\(receiver.lines)")
            #expect(receiver.lines.last == "decision\t427\tambiguous\t2")
        }
    }

    @Test(.slowSlice) func aWithdrawnServiceIsReportedRemoved() async throws {
        try await withAvahiHosts(2) { hosts in
            let sender = try hosts.probe(in: 1, "advertise", "427", "40123")
            #expect(await sender.expectLine("established") == "established\t427")
            let watcher = try hosts.probe(in: 2, "watch")
            #expect(await watcher.expectLine("found") != nil)

            sender.send("withdraw")
            #expect(await sender.expectLine("stopped") == "stopped\twithdrawn")
            #expect(await watcher.expectLine("removed")?.hasPrefix("removed\tAccountHandoff 427\t") == true)
            watcher.closeInput()
            #expect(await watcher.finish() == 0)
        }
    }

    /// The daemon stopping under a browser and an advertiser gives each the typed error; a
    /// browser started while it is down gives the daemon-not-running error; started again, it
    /// serves again.
    @Test(.slowSlice) func theDaemonStoppedMidBrowseGivesTheTypedError() async throws {
        try await withAvahiHosts(2) { hosts in
            let sender = try hosts.probe(in: 1, "advertise", "427", "40123")
            #expect(await sender.expectLine("established") == "established\t427")
            let watcher = try hosts.probe(in: 2, "watch")
            #expect(await watcher.expectLine("found") != nil)

            try await hosts.stopAvahi(in: 2)
            #expect(await watcher.expectLine("error")?.hasPrefix("error\tdaemonStopped\tThe Avahi daemon stopped") == true)
            #expect(await watcher.finish() == 1)

            let late = try hosts.probe(in: 2, "browse", "427", "500")
            #expect(await late.finish() == 1)
            #expect(late.lines.first?.hasPrefix("error\tdaemonNotRunning\t") == true, "\(late.lines)")

            try await hosts.stopAvahi(in: 1)
            #expect(await sender.expectLine("stopped")?.hasPrefix("stopped\tfailed\tdaemonStopped\t") == true)
            #expect(await sender.finish() == 1)

            try await hosts.startAvahi(in: 2)
            let again = try hosts.probe(in: 2, "browse", "427", "500")
            #expect(await again.finish() == 0)
            #expect(again.lines == ["decision\t427\tnotFound"])
        }
    }
}
#endif
