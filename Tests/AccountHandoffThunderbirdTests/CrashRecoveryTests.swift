import AccountHandoff
@testable import AccountHandoffThunderbird
import Foundation
import Testing
import TestProcesses

/// A real import process killed with SIGKILL at every step of the transaction; the next run
/// finds the profile byte for byte as it was (before the commit) or with the whole account
/// (after it), and no journal, lock link or lock file of its own.
@Suite(.startsProcesses) struct CrashRecoveryTests {
    /// Adding to a profile without an SDR key (so NSS makes one), and replacing an account in
    /// a profile that has one.
    enum Scenario: String, CaseIterable, CustomTestStringConvertible {
        case addWithNewKey, replace
        var testDescription: String { rawValue }
    }

    static let cases: [(Scenario, ImportStep)] = Scenario.allCases.flatMap { scenario in
        ImportStep.allCases.filter { scenario == .addWithNewKey || $0 != .keyDatabaseChanged }.map { (scenario, $0) }
    }

    @Test(arguments: cases)
    func killAtEveryStepThenRecover(scenario: Scenario, step: ImportStep) async throws {
        let scratch: ScratchProfile
        switch scenario {
        case .addWithNewKey: scratch = try ScratchProfile()
        case .replace: scratch = try await BadInputTests.profileWithAccount()
        }
        defer { scratch.remove() }
        let before = try scratch.tree()
        let arguments = ["import", "--profile", scratch.directory.path, "--host", "mail.example.net", "--port", "993", "--user", "ada",
                         "--email", "ada@example.org"] + (scenario == .replace ? ["--choice", "replace"] : [])
        try ImportProbe.kill(arguments, input: "new-password\n", at: step)

        let check = try ImportProbe.run(["check", "--profile", scratch.directory.path], input: "")
        let after = try scratch.tree()
        #expect(!after.keys.contains { $0.hasPrefix(".handoff-import") || $0 == "lock" }, "left over: \(after.keys.sorted())")
        if step.isCommitted {
            #expect(check == "CHECKED clean 1\n")
            let read = try ImportProbe.run(["read", "--profile", scratch.directory.path], input: "new-password\n")
            #expect(read == "READ Ada Lovelace <ada@example.org> ada@mail.example.net:993 (TLS) PASSWORD MATCHES\n")
            #expect(after[".parentlock"] == before[".parentlock"], "the lock file is as it was")
        } else {
            #expect(check == (step == .journalFolderCreated || step == .journalCopiesSaved
                ? "CHECKED clean \(scenario == .replace ? 1 : 0)\n" : "CHECKED rolledBack \(scenario == .replace ? 1 : 0)\n"))
            #expect(after == before, "after a kill at \(step.rawValue) and recovery: \(Self.difference(before, after))")
        }
    }

    /// When Thunderbird used the profile between the crash and the next run, the interrupted
    /// import is not undone over what Thunderbird wrote.
    @Test func changesMadeAfterTheCrashAreNotOverwritten() async throws {
        let scratch = try await BadInputTests.profileWithAccount()
        defer { scratch.remove() }
        try ImportProbe.kill(["import", "--profile", scratch.directory.path, "--host", "mail.example.net", "--port", "993", "--user", "ada",
                              "--email", "ada@example.org", "--choice", "replace"], input: "new-password\n", at: .preferencesWritten)
        let changed = try scratch.read("prefs.js") + "user_pref(\"mail.ui-rdf.version\", 61);\n"
        try scratch.write("prefs.js", changed)
        let check = try ImportProbe.run(["check", "--profile", scratch.directory.path], input: "")
        #expect(check == "CHECKED abandoned:prefs.js 1\n")
        #expect(try scratch.read("prefs.js") == changed)
        #expect(!FileManager.default.fileExists(atPath: scratch.directory.appendingPathComponent(".handoff-import").path))
    }

    static func difference(_ before: [String: String], _ after: [String: String]) -> String {
        let keys = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return keys.map { "\($0): \(before[$0].map { String($0.prefix(40)) } ?? "absent") -> \(after[$0].map { String($0.prefix(40)) } ?? "absent")" }
            .joined(separator: "; ")
    }
}
