import AccountHandoffTestSupport
@testable import AccountHandoffThunderbird
import Foundation
import TestProcesses

/// Runs the `thunderbird-import-probe` executable: one profile operation in a process of its
/// own, optionally behind a launcher (`setpriv` without file-permission override, `unshare`
/// with a small file system), optionally killed with SIGKILL at a named import step.
enum ImportProbe {
    /// Runs the probe to its end; its standard output.
    static func run(_ arguments: [String], input: String, launcher: [String] = [], timeout: Duration = Patience.deadline) throws -> String {
        try ProbeProcess(try binary(), arguments, input: input, launcher: launcher).finish(timeout: timeout)
    }

    /// Runs `executable` (which runs the probe itself) to its end; its standard output.
    static func command(_ executable: String, _ arguments: [String], timeout: Duration = Patience.deadline) throws -> String {
        try ProbeProcess(URL(fileURLWithPath: executable), arguments, input: "").finish(timeout: timeout)
    }

    /// Runs an import until it reports `step`, then kills it with SIGKILL.
    ///
    /// - Throws: ``AccountHandoffTestSupport/ProbeProcess/Failure`` when the probe did not
    ///   stop there or did not die of the kill.
    static func kill(_ arguments: [String], input: String, at step: ImportStep) throws {
        try ProbeProcess(try binary(), arguments + ["--stop-at", step.rawValue], input: input)
            .kill(at: "STOPPED \(step.rawValue)", timeout: Patience.deadline)
    }

    /// The probe built next to the test bundle by `swift build --build-tests`.
    static func binary() throws -> URL {
        try BuiltExecutable.url(named: "thunderbird-import-probe")
    }
}
