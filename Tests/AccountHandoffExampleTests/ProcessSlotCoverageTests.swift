import Foundation
import Testing

/// Every suite whose tests start processes holds a slot of `ProcessSlots` per test
/// (`.startsProcesses`), so that the suite never starts dozens of them at once on two cores: a
/// file that starts a `handoff` child, a throwaway server, a probe or any other program (in its
/// code, not its comments) declares each of its suites with the trait.
@Suite struct ProcessSlotCoverageTests {
    /// What starts a process in a test file.
    static let starters = ["HandoffProcess(", "HandoffProcess.run(", "TerminalProcess(", "TransferPair.start", "CLIGate()",
                           "SpawnedChild.spawn(", "ThrowawayDovecot.start(", "TransitRelay.start", "Process()", "ChildProcess.run(",
                           "AvahiHosts.start", "HostProcess.started(", "NamespacedHandoff("]

    /// The suites, as `path:line`, of files under Tests/ that start processes and lack the trait.
    static func suitesWithoutSlots() throws -> (files: Int, missing: [String]) {
        var files = 0
        var missing: [String] = []
        for path in try DocumentationScan.files(under: "Tests", ending: ".swift") {
            let code = EveryTestAssertsTests.code(of: try DocumentationScan.read(path))
            guard starters.contains(where: code.contains) else { continue }
            let lines = code.components(separatedBy: "\n")
            let suites = lines.indices.filter { lines[$0].contains("@Suite") }
            guard !suites.isEmpty else { continue }  // a helper file
            files += 1
            missing += suites.filter { !lines[$0].contains(".startsProcesses") }.map { "\(path):\($0 + 1)" }
        }
        return (files, missing)
    }

    @Test func everySuiteThatStartsProcessesHoldsASlotPerTest() throws {
        let (files, missing) = try Self.suitesWithoutSlots()
        #expect(files > 30, "the scan found only \(files) files that start processes")
        #expect(missing.isEmpty, "add .startsProcesses (import TestProcesses) to: \(missing.joined(separator: "; "))")
    }
}
