#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation
import SpawnedChild

/// A throwaway Dovecot IMAP server on loopback ports, for tests and the demo: one user with
/// one password, a certificate from a throwaway CA, everything (configuration, sockets,
/// state, logs, mail) inside its own temporary directory. No system configuration is read or
/// changed.
///
/// ```swift
/// let server = try ThrowawayDovecot.start(user: "demo", password: password)
/// defer { server.stop() }
/// // connect to server.host:server.tlsPort (implicit TLS) or server.startTLSPort (STARTTLS),
/// // trusting only server.caFile
/// ```
///
/// When started as root, Dovecot's own processes run as the `dovecot` and `dovenull` users
/// that Debian's package creates; otherwise everything runs as the current user without
/// chroot. The server stops when ``stop()`` is called, and also when this process exits.
public final class ThrowawayDovecot: @unchecked Sendable {
    // Safety of @unchecked Sendable: `stopped` is only touched under `lock`; the rest is immutable.

    /// Further endpoints on other loopback addresses (Linux routes all of 127/8 to loopback),
    /// each on the same ports, for testing how clients fail.
    public enum ExtraEndpoint: String, Hashable, Sendable, CaseIterable {
        /// 127.0.0.2: a certificate from a second CA that clients do not trust.
        case untrustedCertificate
        /// 127.0.0.3: a certificate from the trusted CA, issued for another host name.
        case wrongHostName
        /// 127.0.0.4: no TLS at all (no STARTTLS); plaintext login allowed.
        case withoutTLS

        /// The endpoint's loopback address.
        public var address: String {
            switch self {
            case .untrustedCertificate: "127.0.0.2"
            case .wrongHostName: "127.0.0.3"
            case .withoutTLS: "127.0.0.4"
            }
        }
    }

    /// The host clients connect to: `127.0.0.1`.
    public let host = "127.0.0.1"
    /// The implicit-TLS (IMAPS) port.
    public let tlsPort: UInt16
    /// The STARTTLS (IMAP) port.
    public let startTLSPort: UInt16
    /// The CA certificate (PEM) clients must trust.
    public let caFile: URL
    /// The user name of the one account.
    public let user: String
    /// The server's temporary directory (removed by ``stop()``).
    public let directory: URL

    private let process: SpawnedChild
    private let lock = NSLock()
    private var stopped = false

    private init(tlsPort: UInt16, startTLSPort: UInt16, user: String, directory: URL, process: SpawnedChild) {
        self.tlsPort = tlsPort
        self.startTLSPort = startTLSPort
        self.user = user
        self.directory = directory
        self.caFile = directory.appendingPathComponent("ca.crt")
        self.process = process
    }

    deinit { stop() }

    /// Starts a server with one account and waits until it greets.
    ///
    /// - Parameters:
    ///   - user: the login name (letters, digits, `. _ - @ +`).
    ///   - password: the account's password; only its salted SHA-256 is written to disk.
    ///   - extraEndpoints: further endpoints for failure tests.
    ///   - startupTimeout: how long to wait for the greeting.
    /// - Throws: why the server could not be started; print its description.
    public static func start(user: String, password: SecretBytes, extraEndpoints: Set<ExtraEndpoint> = [],
                             startupTimeout: Duration = .seconds(10)) throws(DovecotUnavailable) -> ThrowawayDovecot {
        guard PasswordFile.isValidUser(user) else { throw .setupFailed("the user name \(user) is not allowed") }
        guard let dovecot = ExecutableSearch.find("dovecot", preferred: ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot",
                                                                         "/opt/homebrew/sbin/dovecot"]) else {
            throw .dovecotNotInstalled
        }
        guard let openssl = ExecutableSearch.find("openssl", preferred: ["/usr/bin/openssl", "/opt/homebrew/bin/openssl"]) else {
            throw .opensslNotInstalled
        }
        let directory = try makeDirectory()
        do throws(DovecotUnavailable) {
            let accounts = try ServiceAccounts.forCurrentUser()
            let endpoints = ExtraEndpoint.allCases.filter(extraEndpoints.contains)
            try prepareFiles(in: directory, user: user, password: password, accounts: accounts, endpoints: endpoints, openssl: openssl)
            var lastFailure = DovecotUnavailable.noFreePort
            // A port found free can be taken before Dovecot binds it; then try new ports.
            for _ in 0..<3 {
                guard let tlsPort = LoopbackProbe.freePort(), let startTLSPort = LoopbackProbe.freePort(), tlsPort != startTLSPort else {
                    continue
                }
                let configuration = DovecotConfiguration(
                    directory: directory.path, instanceName: "accounthandoff-\(UUID().uuidString.prefix(8))",
                    startTLSPort: startTLSPort, tlsPort: tlsPort, extraEndpoints: endpoints,
                    internalUser: accounts.internalUser, loginUser: accounts.loginUser, internalGroup: accounts.internalGroup,
                    mailUID: accounts.mailUID, allowChroot: accounts.isRoot)
                do throws(DovecotUnavailable) {
                    return try launch(dovecot, configuration, user: user, directory: directory, timeout: startupTimeout)
                } catch {
                    lastFailure = error
                    guard case .exited = error else { break }
                }
            }
            throw lastFailure
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Stops the server and removes its directory. Idempotent.
    public func stop() {
        guard terminate() else { return }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Dovecot's log so far (logins, logouts, TLS errors); never contains a password.
    public func log() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("dovecot.log"), encoding: .utf8)) ?? ""
    }

    // MARK: Startup

    private static func makeDirectory() throws(DovecotUnavailable) -> URL {
        // Short path under /tmp: Dovecot's UNIX sockets must fit in sun_path.
        var template = Array("/tmp/accounthandoff-dovecot-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .setupFailed("mkdtemp failed with errno \(errno)") }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    private static func prepareFiles(in directory: URL, user: String, password: SecretBytes, accounts: ServiceAccounts,
                                     endpoints: [ExtraEndpoint], openssl: String) throws(DovecotUnavailable) {
        let certificates = TestCertificates(directory: directory, openssl: openssl)
        try certificates.makeAuthority("ca", commonName: "AccountHandoff throwaway test CA")
        try certificates.makeServerCertificate("server", subjectAltName: "IP:127.0.0.1,DNS:localhost", signedBy: "ca")
        if endpoints.contains(.untrustedCertificate) {
            try certificates.makeAuthority("untrusted-ca", commonName: "AccountHandoff CA nobody trusts")
            try certificates.makeServerCertificate(ExtraEndpoint.untrustedCertificate.rawValue,
                                                   subjectAltName: "IP:\(ExtraEndpoint.untrustedCertificate.address)",
                                                   signedBy: "untrusted-ca")
        }
        if endpoints.contains(.wrongHostName) {
            try certificates.makeServerCertificate(ExtraEndpoint.wrongHostName.rawValue,
                                                   subjectAltName: "DNS:wrong-host.invalid,IP:127.0.0.9", signedBy: "ca")
        }
        let mail = directory.appendingPathComponent("mail")
        let users = directory.appendingPathComponent("users")
        let line = PasswordFile.line(user: user, password: password, uid: accounts.mailUID, gid: accounts.mailGID,
                                     home: mail.appendingPathComponent(user).path)
        do {
            try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: false)
            try Data(line.utf8).write(to: users)
        } catch {
            throw .setupFailed("writing the server's files failed")
        }
        guard chmod(users.path, 0o600) == 0 else { throw .setupFailed("chmod of the users file failed") }
        if accounts.isRoot {
            // Dovecot's auth and mail processes run as its own user and must reach these.
            guard chown(users.path, accounts.mailUID, accounts.mailGID) == 0,
                  chown(mail.path, accounts.mailUID, accounts.mailGID) == 0,
                  chmod(directory.path, 0o711) == 0 else {
                throw .setupFailed("handing the users file to the dovecot user failed")
            }
        }
    }

    private static func launch(_ dovecot: String, _ configuration: DovecotConfiguration, user: String, directory: URL,
                               timeout: Duration) throws(DovecotUnavailable) -> ThrowawayDovecot {
        let configFile = directory.appendingPathComponent("dovecot.conf")
        do { try Data(configuration.text.utf8).write(to: configFile) } catch { throw .setupFailed("writing dovecot.conf failed") }
        // Dovecot's master in the foreground: stop() sends it SIGTERM, and so does the kernel
        // when this process is gone, however it ended; the master then stops its own children.
        let process: SpawnedChild
        switch SpawnedChild.spawn(dovecot, ["-F", "-c", configFile.path],
                                  output: .file(directory.appendingPathComponent("stderr.log").path), deathSignal: SIGTERM) {
        case .success(let child): process = child
        case .failure(let error): throw .launchFailed(error.description)
        }
        let server = ThrowawayDovecot(tlsPort: configuration.tlsPort, startTLSPort: configuration.startTLSPort, user: user,
                                      directory: directory, process: process)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                let log = server.logTail()
                _ = server.terminate()
                throw .exited(status: process.terminationStatus, log: log)
            }
            if LoopbackProbe.greets(port: configuration.startTLSPort, timeout: .milliseconds(500)) { return server }
            usleep(20_000)
        }
        let log = server.logTail()
        _ = server.terminate()
        throw .noGreeting(log: log)
    }

    private func logTail() -> String {
        let text = log() + ((try? String(contentsOf: directory.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? "")
        return String(text.suffix(2_000))
    }

    /// Stops Dovecot (SIGTERM to its master, SIGKILL after 5 seconds) and waits for the master.
    /// Returns false if it had already been stopped.
    private func terminate() -> Bool {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return false }
        process.send(SIGTERM)
        if !process.waitForExit(timeout: .seconds(5)) {
            process.send(SIGKILL)
            process.waitForExit(timeout: .seconds(5))
        }
        return true
    }
}

/// Which system users Dovecot's processes run as.
struct ServiceAccounts {
    let isRoot: Bool
    let internalUser: String
    let loginUser: String
    let internalGroup: String
    let mailUID: UInt32
    let mailGID: UInt32

    static func forCurrentUser() throws(DovecotUnavailable) -> ServiceAccounts {
        if geteuid() == 0 {
            // Dovecot refuses to run its login processes as root; Debian's package creates these users.
            // getpwnam returns static storage, so copy each answer before the next call.
            guard let daemon = getpwnam("dovecot") else { throw .setupFailed("the dovecot user is missing (reinstall dovecot-core)") }
            let (uid, gid) = (daemon.pointee.pw_uid, daemon.pointee.pw_gid)
            guard getpwnam("dovenull") != nil else { throw .setupFailed("the dovenull user is missing (reinstall dovecot-core)") }
            guard let group = getgrgid(gid) else { throw .setupFailed("the dovecot user's group is missing") }
            return ServiceAccounts(isRoot: true, internalUser: "dovecot", loginUser: "dovenull",
                                   internalGroup: String(cString: group.pointee.gr_name), mailUID: uid, mailGID: gid)
        }
        guard let me = getpwuid(geteuid()) else { throw .setupFailed("the current user has no passwd entry") }
        let name = String(cString: me.pointee.pw_name)
        guard let group = getgrgid(getegid()) else { throw .setupFailed("the current group has no group entry") }
        return ServiceAccounts(isRoot: false, internalUser: name, loginUser: name, internalGroup: String(cString: group.pointee.gr_name),
                               mailUID: geteuid(), mailGID: getegid())
    }
}
