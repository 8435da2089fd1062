import AccountHandoffImportTestSupport
import AccountHandoffTestSupport
import Foundation
import TestProcesses

/// Runs the `import-crash-probe` executable until it reports the named point, then kills it
/// with SIGKILL: a crash at exactly that step of the transaction.
enum CrashProbe {
    /// Starts an import of `scenario` into `run.directory` and SIGKILLs it at `point`.
    ///
    /// - Throws: ``AccountHandoffTestSupport/ProbeProcess/Failure`` when the probe did not
    ///   stop there or did not die of the kill.
    static func killImport(_ run: ScenarioRun, at point: TransactionPoint) throws {
        let arguments = ["--store", run.directory.path, "--scenario", run.scenario.rawValue, "--stop-at", point.rawValue,
                         "--host", run.server.host, "--port", String(run.server.tlsPort), "--user", SharedDovecot.user,
                         "--ca", run.server.caFile.path] + run.probeArguments
        let password = run.scenario == .validationFailure ? "not-the-password" : SharedDovecot.password
        try ProbeProcess(try binary(), arguments, input: password + "\n").kill(at: "STOPPED \(point.rawValue)", timeout: Patience.deadline)
    }

    /// The probe built next to the test bundle by `swift build --build-tests`.
    static func binary(named name: String = "import-crash-probe") throws -> URL {
        try BuiltExecutable.url(named: name)
    }
}
