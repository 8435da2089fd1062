import HandoffCLI
import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// The demo's local-authentication gate (Spec 8.7): both children run PAM under cwrap's
/// pam_wrapper with a throwaway service `handoff` whose only user is the person running the
/// demo, with the login password ``password``, so the gate asks and checks for real without
/// touching /etc/pam.d or the person's real password.
struct DemoGate {
    /// The demo's throwaway login password (it protects nothing outside the demo).
    static let password = "demo-login"

    private let world: PAMWrapperWorld
    /// The environment the children run in.
    let environment: [String: String]

    /// The gate, or `nil` when Debian's libpam-wrapper is missing (the demo then runs the
    /// children with `--no-local-auth` and says so).
    static func make() -> DemoGate? {
        #if canImport(Glibc)
        do {
            let world = try PAMWrapperWorld()
            try world.allow(password: password, service: "handoff")
            try world.writeMatrixService(name: "handoff")
            // PAM falls back to `other` for unknown services; a denying one keeps it quiet.
            let deny = try PAMWrapperPaths.shared().denyModule
            try world.writeService(["auth required \(deny)", "account required \(deny)"], name: "other")
            return DemoGate(world: world, environment: try world.environment())
        } catch {
            return nil
        }
        #else
        return nil
        #endif
    }

    /// Starts `child` while no other pam_wrapper process starts (pam_wrapper picks its copy
    /// of the services by name, racily), runs `started` (for example to hand it its input),
    /// and waits for its first output line.
    static func start(_ child: DemoChild, then started: () -> Void = {}) throws {
        try PAMWrapperWorld.withStartLock {
            try child.start()
            started()
            child.waitForFirstLine(timeout: 10)
        }
    }
}
