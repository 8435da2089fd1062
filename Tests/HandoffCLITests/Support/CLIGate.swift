import AccountHandoffTestSupport
import Foundation

/// The local-authentication gate of the `handoff` children under test (Spec 8.7): PAM under
/// cwrap's pam_wrapper with a throwaway service `handoff` whose only user is this process's
/// user, with ``password`` (no test touches /etc/pam.d or a real password).
final class CLIGate: @unchecked Sendable {
    // Safety of @unchecked Sendable: the world is set up once in init and only read afterwards.
    /// The throwaway login password the gate accepts.
    static let password = "gate-login-password-0"

    private let world: PAMWrapperWorld
    /// The environment a gated child runs in.
    let environment: [String: String]

    init() throws {
        world = try PAMWrapperWorld()
        try world.allow(password: Self.password, service: "handoff")
        try world.writeMatrixService(name: "handoff")
        let deny = try PAMWrapperPaths.shared().denyModule
        try world.writeService(["auth required \(deny)", "account required \(deny)"], name: "other")
        environment = try world.environment(base: [:])
    }

    /// Starts `handoff arguments...` under the gate: no other pam_wrapper process starts at the
    /// same moment (pam_wrapper picks its copy of the services racily), and the start lock is
    /// held until the child printed something (its pam_wrapper setup is done by then).
    /// `extra` adds to the gate's environment (a locale).
    func start(_ arguments: [String], writing firstInput: String? = nil, environment extra: [String: String] = [:]) async throws -> HandoffProcess {
        let environment = environment.merging(extra) { _, added in added }
        return try await PAMWrapperWorld.withStartLockOnItsOwnThread {
            let process = try HandoffProcess(arguments, environment: environment)
            if let firstInput { process.write(firstInput) }
            let deadline = Date().addingTimeInterval(180)
            while Date() < deadline, process.stdoutSoFar.isEmpty, process.stderrSoFar.isEmpty { usleep(5_000) }
            return process
        }
    }
}
