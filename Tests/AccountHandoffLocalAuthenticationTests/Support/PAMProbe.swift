#if canImport(Glibc)
import AccountHandoffTestSupport
import Foundation
import Glibc
import TestProcesses

/// Runs the `pam-probe` in a ``PAMWrapperWorld``.
extension PAMWrapperWorld {
    /// Runs the probe with `arguments`, its answers `answers` on standard input (one line
    /// each; none means the end of input at the first question). The whole run holds the
    /// pam_wrapper start lock (a probe lives for milliseconds), on a thread of its own: other
    /// tests' pam_wrapper starts may hold the lock meanwhile, and a wait on one of the few
    /// threads that run every test's async code would stall them all.
    func probe(_ arguments: [String] = ["--service", PAMWrapperWorld.service], answers: [String],
               extraEnvironment: [String: String] = [:]) async throws -> ProbeRun {
        let input = answers.map { $0 + "\n" }.joined()
        let environment = try environment().merging(extraEnvironment) { $1 }
        let binary = try ProbeBinary.url()
        let result = try await PAMWrapperWorld.withStartLockOnItsOwnThread {
            try ChildProcess.run(binary, arguments, input: Data(input.utf8), environment: environment)
        }
        return ProbeRun(arguments: arguments, environment: environment, result: result)
    }
}

/// What one probe run printed, parsed.
struct ProbeRun {
    let arguments: [String]
    let environment: [String: String]
    let result: ChildProcess.Result

    var lines: [String] {
        String(decoding: result.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The output and standard error, for a failing expectation's message.
    var diagnosis: String {
        "stdout: \(lines) stderr: \(String(decoding: result.stderr, as: UTF8.self)) status: \(result.status)"
    }

    /// Every prompt, as `kind text` (`secret Password: `, `error ...`).
    var prompts: [String] {
        lines.filter { $0.hasPrefix("prompt ") }.map { String($0.dropFirst("prompt ".count)) }
    }

    /// How many password questions the probe was asked.
    var passwordPrompts: Int {
        prompts.filter { $0.hasPrefix("secret ") }.count
    }

    /// The result line without `result `, such as `failed notRecognized`.
    var outcome: String? {
        lines.first { $0.hasPrefix("result ") }.map { String($0.dropFirst("result ".count)) }
    }

    /// Where an answer appeared in the probe's own arguments or environment: `none` if nowhere.
    var exposure: String? {
        lines.first { $0.hasPrefix("exposed ") }.map { String($0.dropFirst("exposed ".count)) }
    }

    /// Everything the probe was started with or wrote, for checking that a secret is absent.
    var everythingVisible: String {
        (arguments + environment.map { "\($0.key)=\($0.value)" }).joined(separator: "\n") + "\n"
            + String(decoding: result.stdout + result.stderr, as: UTF8.self)
    }
}

/// The probe built next to the test bundle by `swift build --build-tests`.
enum ProbeBinary {
    static func url() throws -> URL {
        try BuiltExecutable.url(named: "pam-probe")
    }
}
#endif
