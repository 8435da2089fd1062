#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A throwaway Secret Service for tests: its own D-Bus session bus (`dbus-daemon` with a
/// configuration written here, no service activation) and, unless asked otherwise, a
/// `gnome-keyring-daemon` (secrets component only) whose login keyring is created with a
/// random password and unlocked. HOME and every XDG directory point into one temporary
/// directory; nothing of the person's session, keyring or configuration is read or changed.
///
/// A process talks to it by having `DBUS_SESSION_BUS_ADDRESS` set to ``busAddress`` before
/// its first D-Bus call (libsecret and GLib keep the first connection): pass ``environment``
/// to a child, or call ``useInThisProcess()`` first thing.
public final class ThrowawaySecretService: @unchecked Sendable {
    // Safety of @unchecked Sendable: `stopped` is only touched under `lock`; the rest is immutable.

    /// What the bus offers.
    public enum Contents: Sendable {
        /// gnome-keyring with an unlocked default collection (`login`).
        case unlockedKeyring
        /// gnome-keyring whose default collection was locked after it was created.
        case lockedKeyring
        /// A session bus with no Secret Service on it.
        case noKeyring
    }

    /// The bus's address (`unix:path=...`).
    public let busAddress: String
    /// The temporary directory holding the bus socket, the keyring files and the logs.
    public let directory: URL
    /// The default collection's object path when a keyring runs.
    public static let defaultCollectionPath = "/org/freedesktop/secrets/collection/login"

    private let bus: SpawnedProcess
    private let keyring: SpawnedProcess?
    private let lock = NSLock()
    private var stopped = false

    private init(busAddress: String, directory: URL, bus: SpawnedProcess, keyring: SpawnedProcess?) {
        self.busAddress = busAddress
        self.directory = directory
        self.bus = bus
        self.keyring = keyring
    }

    deinit { stop() }

    /// The environment a child needs to use this Secret Service: the bus address, and HOME and
    /// XDG directories inside ``directory`` so no tool falls back to the person's own.
    public var environment: [String: String] {
        Self.isolatedEnvironment(directory).merging(["DBUS_SESSION_BUS_ADDRESS": busAddress]) { _, new in new }
    }

    /// Points this process's future D-Bus connections at this bus.
    ///
    /// - Warning: only effective before this process's first D-Bus (libsecret) call.
    public func useInThisProcess() {
        setenv("DBUS_SESSION_BUS_ADDRESS", busAddress, 1)
    }

    /// Starts a bus (and a keyring, per `contents`) and waits until it answers.
    ///
    /// - Throws: ``ThrowawaySecretServiceUnavailable`` naming the missing program or the
    ///   step that failed.
    public static func start(_ contents: Contents = .unlockedKeyring) throws(ThrowawaySecretServiceUnavailable) -> ThrowawaySecretService {
        guard let dbusDaemon = find("dbus-daemon"), let dbusSend = find("dbus-send") else {
            throw .missingProgram("dbus-daemon and dbus-send (Debian packages dbus-daemon, dbus-bin)")
        }
        let keyringDaemon = find("gnome-keyring-daemon")
        if contents != .noKeyring, keyringDaemon == nil { throw .missingProgram("gnome-keyring-daemon (Debian package gnome-keyring)") }
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-keyring-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { throw .failed("mkdtemp failed with error \(errno)") }
        let directory = URL(fileURLWithPath: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        do {
            for name in ["home", "data", "config", "cache", "runtime", "services"] {
                try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: false,
                                                        attributes: [.posixPermissions: 0o700])
            }
            try busConfiguration(directory).write(to: directory.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw .failed("the temporary directory could not be prepared (\(error))")
        }
        let environment = isolatedEnvironment(directory)
        let log = directory.appendingPathComponent("daemons.log").path
        let bus: SpawnedProcess
        let address: String
        do {
            bus = try SpawnedProcess.start(dbusDaemon, ["--config-file=" + directory.appendingPathComponent("bus.conf").path,
                                                        "--nofork", "--nopidfile", "--print-address=1"],
                                           environment: environment, captureOutput: true, log: log)
            address = readLine(bus.output) ?? ""
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw .failed(error.description)
        }
        guard address.hasPrefix("unix:") else {
            bus.send(SIGKILL)
            bus.waitForExit(timeout: .seconds(5))
            try? FileManager.default.removeItem(at: directory)
            throw .failed("dbus-daemon printed no address")
        }
        guard contents != .noKeyring, let keyringDaemon else {
            return ThrowawaySecretService(busAddress: address, directory: directory, bus: bus, keyring: nil)
        }
        let keyring: SpawnedProcess
        do {
            // The login keyring's password: random, on standard input only, never reused.
            let password = UUID().uuidString
            keyring = try SpawnedProcess.start(keyringDaemon, ["--foreground", "--unlock", "--components=secrets"],
                                               environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { _, new in new },
                                               input: password, captureOutput: false, log: log)
        } catch {
            ThrowawaySecretService(busAddress: address, directory: directory, bus: bus, keyring: nil).stop()
            throw .failed(error.description)
        }
        let running = ThrowawaySecretService(busAddress: address, directory: directory, bus: bus, keyring: keyring)
        do throws(ThrowawaySecretServiceUnavailable) {
            try running.waitForDefaultCollection(dbusSend)
            if contents == .lockedKeyring { try running.lockDefaultCollection(dbusSend) }
        } catch {
            running.stop()
            throw error
        }
        return running
    }

    /// Stops the keyring daemon only, as if it had died: the bus stays, and nothing on it
    /// starts the keyring again (the bus has no activatable services).
    public func stopKeyringDaemon() {
        guard let keyring else { return }
        keyring.send(SIGKILL)
        keyring.waitForExit(timeout: .seconds(5))
    }

    /// Stops the daemons and removes the directory. Idempotent.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        for process in [keyring, bus].compactMap({ $0 }) {
            process.send(SIGTERM)
            if !process.waitForExit(timeout: .seconds(5)) {
                process.send(SIGKILL)
                process.waitForExit(timeout: .seconds(5))
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits until the keyring owns the service name and has a default collection.
    private func waitForDefaultCollection(_ dbusSend: String) throws(ThrowawaySecretServiceUnavailable) {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let keyring, !keyring.isRunning { throw .failed("gnome-keyring-daemon exited with status \(keyring.terminationStatus)") }
            let reply = try? secretServiceCall(dbusSend, ["org.freedesktop.Secret.Service.ReadAlias", "string:default"])
            if let reply, reply.contains(Self.defaultCollectionPath) { return }
            usleep(20_000)
        }
        throw .failed("gnome-keyring-daemon did not offer a default collection within 15 s")
    }

    /// Locks the default collection (gnome-keyring locks without a prompt; unlocking would need one).
    private func lockDefaultCollection(_ dbusSend: String) throws(ThrowawaySecretServiceUnavailable) {
        _ = try secretServiceCall(dbusSend, ["org.freedesktop.Secret.Service.Lock", "array:objpath:" + Self.defaultCollectionPath])
    }

    /// The labels, as keyring managers (Seahorse) show them, of the items whose attributes
    /// include `attributes` (names and values without commas), read with plain D-Bus calls.
    /// Blocks while `dbus-send` runs.
    public func labels(ofItemsWith attributes: [(name: String, value: String)]) throws(ThrowawaySecretServiceUnavailable) -> [String] {
        guard let dbusSend = Self.find("dbus-send") else { throw .missingProgram("dbus-send (Debian package dbus-bin)") }
        let query = "dict:string:string:" + attributes.map { "\($0.name),\($0.value)" }.joined(separator: ",")
        let found = try secretServiceCall(dbusSend, ["org.freedesktop.Secret.Service.SearchItems", query])
        var labels: [String] = []
        for item in Self.quoted(after: "object path", in: found) {
            let reply = try secretServiceCall(dbusSend, ["org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Item", "string:Label"],
                                              path: item)
            guard let label = Self.quoted(after: "string", in: reply).first else { throw .failed("no label in the reply for \(item)") }
            labels.append(label)
        }
        return labels
    }

    /// The quoted values of `dbus-send --print-reply` lines whose value is of `kind`
    /// (`object path "/org/..."`, `variant string "..."`).
    private static func quoted(after kind: String, in reply: String) -> [String] {
        reply.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: kind + " \""), line.hasSuffix("\"") else { return nil }
            return String(line[start.upperBound..<line.index(before: line.endIndex)])
        }
    }

    private func secretServiceCall(_ dbusSend: String, _ method: [String],
                                   path: String = "/org/freedesktop/secrets") throws(ThrowawaySecretServiceUnavailable) -> String {
        let arguments = ["--bus=" + busAddress, "--print-reply", "--dest=org.freedesktop.secrets", path] + method
        let result: (status: Int32, output: String)
        do { result = try SpawnedProcess.run(dbusSend, arguments, environment: environment) } catch { throw .failed(error.description) }
        guard result.status == 0 else { throw .failed("dbus-send \(method[0]) failed with status \(result.status)") }
        return result.output
    }

    private static func isolatedEnvironment(_ directory: URL) -> [String: String] {
        [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path,
        ]
    }

    private static func busConfiguration(_ directory: URL) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(directory.appendingPathComponent("runtime").path)</listen>
          <servicedir>\(directory.appendingPathComponent("services").path)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    private static func find(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func readLine(_ handle: FileHandle?) -> String? {
        guard let handle else { return nil }
        var data = Data()
        while !data.contains(10) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}

/// Why a throwaway Secret Service could not start.
public enum ThrowawaySecretServiceUnavailable: Error, CustomStringConvertible, Sendable {
    /// A program is not installed; the Debian package is named.
    case missingProgram(String)
    /// A step failed.
    case failed(String)

    public var description: String {
        switch self {
        case .missingProgram(let program): "A throwaway Secret Service needs \(program); run Scripts/setup.sh to install it."
        case .failed(let step): "The throwaway Secret Service could not start: \(step)."
        }
    }
}
