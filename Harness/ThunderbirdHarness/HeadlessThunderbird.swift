#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SpawnedChild

/// Debian's Thunderbird (package `thunderbird`), run headless for the tests with a throwaway
/// home folder: its profile list, caches and profiles live there, never in the person's.
package struct HeadlessThunderbird: Sendable {
    /// Debian's launcher, which `exec`s the program (so its process is Thunderbird's).
    package static let executable = "/usr/bin/thunderbird"

    /// Whether Thunderbird is installed.
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The throwaway home folder.
    package let home: URL

    package init(home: URL) {
        self.home = home
    }

    /// Why Thunderbird could not be used.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// Thunderbird's environment: the throwaway home, no session bus, no crash reporter.
    var environment: [String: String] {
        [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MOZ_HEADLESS": "1", "MOZ_CRASHREPORTER_DISABLE": "1",
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
        ]
    }

    /// Makes a profile with Thunderbird's own `-CreateProfile "NAME DIR"`, listed in the
    /// throwaway home's profile list.
    package func createProfile(named name: String, at directory: URL) throws(Failure) {
        do { try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true) } catch {
            throw Failure(description: "the home folder \(home.path) could not be made")
        }
        let log = home.appendingPathComponent("create-\(name).log").path
        let child: SpawnedChild
        switch SpawnedChild.spawn(Self.executable, ["--headless", "-CreateProfile", "\(name) \(directory.path)"],
                                  environment: environment, output: .file(log)) {
        case .success(let started): child = started
        case .failure(let error): throw Failure(description: "thunderbird -CreateProfile could not start: \(error)")
        }
        guard child.waitForExit(timeout: .seconds(60)), child.terminationStatus == 0,
              FileManager.default.fileExists(atPath: directory.path) else {
            child.send(SIGKILL)
            throw Failure(description: "thunderbird -CreateProfile failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    /// Starts Thunderbird headless on `profile`; with a Marionette port, its remote control
    /// listens there (with system access, for scripts that use Thunderbird's own account and
    /// login managers). It is stopped by ``RunningThunderbird/stop()``, and also when this
    /// process ends.
    package func start(profile: URL, marionettePort: UInt16? = nil) throws(Failure) -> RunningThunderbird {
        var arguments = ["--headless", "--profile", profile.path]
        if let marionettePort {
            let userPreferences = "user_pref(\"marionette.port\", \(marionettePort));\n"
            do { try Data(userPreferences.utf8).write(to: profile.appendingPathComponent("user.js")) } catch {
                throw Failure(description: "writing user.js failed")
            }
            arguments += ["--marionette", "-remote-allow-system-access"]
        }
        let log = home.appendingPathComponent("thunderbird-\(UUID().uuidString.prefix(8)).log")
        let child: SpawnedChild
        switch SpawnedChild.spawn(Self.executable, arguments, environment: environment, output: .file(log.path)) {
        case .success(let started): child = started
        case .failure(let error): throw Failure(description: "thunderbird could not start: \(error)")
        }
        // The kernel ends Thunderbird when this process is gone (SpawnedChild's death signal).
        return RunningThunderbird(child: child, log: log, profile: profile)
    }
}

/// A running headless Thunderbird.
package final class RunningThunderbird: Sendable {
    private let child: SpawnedChild
    /// Its standard output and error.
    package let log: URL
    package let profile: URL

    init(child: SpawnedChild, log: URL, profile: URL) {
        self.child = child
        self.log = log
        self.profile = profile
    }

    deinit { stop() }

    package var pid: pid_t { child.pid }
    package var isRunning: Bool { child.isRunning }

    /// What it printed so far.
    package var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits at most `timeout` for it to exit by itself; whether it did.
    @discardableResult
    package func waitForExit(timeout: Duration) -> Bool { child.waitForExit(timeout: timeout) }

    /// Asks it to quit (SIGTERM: Thunderbird shuts down and saves its files), then kills it
    /// after 20 seconds. Idempotent.
    package func stop() {
        if child.isRunning {
            child.send(SIGTERM)
            if !child.waitForExit(timeout: .seconds(20)) {
                child.send(SIGKILL)
                child.waitForExit(timeout: .seconds(5))
            }
        }
    }
}
