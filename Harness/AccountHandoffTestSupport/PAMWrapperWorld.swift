#if canImport(Glibc)
import AccountHandoff
import Foundation
import Glibc

/// A throwaway PAM world for tests and the demo: a service directory and a pam_matrix password
/// file in a temporary directory, for processes started under cwrap's pam_wrapper
/// (`LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR=<dir>`), which makes
/// their libpam read services from that directory instead of /etc/pam.d. Test support only.
///
/// - Warning: pam_wrapper copies the services, when a process starts, into `/tmp/pam.<c>`
///   with a one-character name it picks by `lstat` then `mkdir`, so two processes starting at
///   the same moment can share a directory (and read each other's services, or lose them when
///   the other exits). Start every pam_wrapper process inside ``withStartLock(_:)``, and hold
///   it until the process has started (its first output, or its end).
package final class PAMWrapperWorld {
    /// A failure to set up the world, as a sentence.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The service name the world's helpers write by default.
    package static let service = "handoff-test"

    /// The temporary directory, removed when the world is released.
    package let directory: URL
    /// The service directory (`PAM_WRAPPER_SERVICE_DIR`).
    package let services: URL
    /// The pam_matrix password file.
    package let passdb: URL
    /// The user PAM authenticates in these worlds: this process's real user.
    package let user: String

    /// A new, empty world.
    package init() throws {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else {
            throw Failure(description: "This process's user ID \(getuid()) has no user name, so PAM cannot authenticate it.")
        }
        user = String(cString: name)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-pam-\(UUID().uuidString)")
        services = directory.appendingPathComponent("services")
        passdb = directory.appendingPathComponent("passdb")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes the password file: ``user`` may use `password` with `service` (pam_matrix's
    /// `user:password:service` lines; its account check refuses other services).
    package func allow(password: String, service: String = PAMWrapperWorld.service) throws {
        try Data("\(user):\(password):\(service)\n".utf8).write(to: passdb)
    }

    /// Writes the service file `name` with `lines`.
    package func writeService(_ lines: [String], name: String = PAMWrapperWorld.service) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: services.appendingPathComponent(name))
    }

    /// The usual service: pam_matrix with ``passdb`` for `auth` (with `authOptions`, such as
    /// `verbose` or `echo`) and `account`.
    package func writeMatrixService(name: String = PAMWrapperWorld.service, authOptions: String = "") throws {
        let matrix = try PAMWrapperPaths.shared().matrixModule
        try writeService(["auth required \(matrix) passdb=\(passdb.path)\(authOptions.isEmpty ? "" : " " + authOptions)",
                          "account required \(matrix) passdb=\(passdb.path)"], name: name)
    }

    /// The environment for a process in this world: `base` (this process's by default) plus
    /// pam_wrapper's switches.
    package func environment(base: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        var environment = base
        environment["LD_PRELOAD"] = try PAMWrapperPaths.shared().wrapperLibrary
        environment["PAM_WRAPPER"] = "1"
        environment["PAM_WRAPPER_SERVICE_DIR"] = services.path
        return environment
    }

    /// Runs `body` holding the lock every pam_wrapper start takes, across processes (an
    /// advisory `flock` on a file in /tmp, where pam_wrapper makes its directories; released
    /// if this process dies).
    package static func withStartLock<Result>(_ body: () throws -> Result) throws -> Result {
        let lock: FileLock
        do { lock = try FileLock.open("/tmp/accounthandoff-pam_wrapper.lock") } catch {
            throw Failure(description: "The pam_wrapper start lock /tmp/accounthandoff-pam_wrapper.lock cannot be opened (\(error)).")
        }
        defer { lock.unlockAndClose() }
        do { try lock.lock(.exclusive) } catch { throw Failure(description: "The pam_wrapper start lock cannot be taken (\(error)).") }
        return try body()
    }

    /// ``withStartLock(_:)`` on a thread of its own: waiting for the lock and the body may
    /// take seconds, which must not hold one of the few threads all tests' async code shares
    /// (2 on a 2-core machine: two such waits stall every other test).
    package static func withStartLockOnItsOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try withStartLock(body) }) }.start()
        }
    }
}

/// Where Debian's libpam-wrapper and libpam-modules put their files (read from dpkg, so any
/// architecture's multiarch directory is found). Test support only.
package struct PAMWrapperPaths: Sendable {
    /// `libpam_wrapper.so`, for LD_PRELOAD.
    package let wrapperLibrary: String
    /// `pam_matrix.so`, the module that checks a password file.
    package let matrixModule: String
    /// `pam_deny.so`, which refuses everyone.
    package let denyModule: String
    /// `pam_unix.so`, which checks the system's password database.
    package let unixModule: String
    /// `pam_rootok.so`, which lets root through without a question.
    package let rootOKModule: String

    private static let found: Result<PAMWrapperPaths, PAMWrapperWorld.Failure> = {
        do {
            let wrapper = try files(of: "libpam-wrapper")
            let modules = try files(of: "libpam-modules")
            guard let library = wrapper.first(where: { $0.hasSuffix("/libpam_wrapper.so") }),
                  let matrix = wrapper.first(where: { $0.hasSuffix("/pam_matrix.so") }),
                  let deny = modules.first(where: { $0.hasSuffix("/pam_deny.so") }),
                  let unix = modules.first(where: { $0.hasSuffix("/pam_unix.so") }),
                  let rootOK = modules.first(where: { $0.hasSuffix("/pam_rootok.so") }) else {
                return .failure(.init(description: "libpam-wrapper or libpam-modules lacks its modules; run Scripts/setup.sh."))
            }
            return .success(PAMWrapperPaths(wrapperLibrary: library, matrixModule: matrix, denyModule: deny, unixModule: unix, rootOKModule: rootOK))
        } catch let failure as PAMWrapperWorld.Failure {
            return .failure(failure)
        } catch {
            return .failure(.init(description: "dpkg-query could not be run: \(error)"))
        }
    }()

    /// The paths, looked up once.
    ///
    /// - Throws: ``PAMWrapperWorld/Failure`` when a package is missing.
    package static func shared() throws -> PAMWrapperPaths {
        try found.get()
    }

    private static func files(of package: String) throws -> [String] {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/dpkg-query"), ["-L", package])
        guard result.status == 0 else {
            throw PAMWrapperWorld.Failure(description: "The Debian package \(package) is not installed; run Scripts/setup.sh.")
        }
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
#endif
