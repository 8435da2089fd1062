import AccountHandoffSecretService
import Foundation
import ThrowawaySecretService

/// One throwaway Secret Service (its own session bus and an unlocked gnome-keyring) for the
/// whole test process, started on first use and stopped when the process exits.
///
/// libsecret connects to the bus in `DBUS_SESSION_BUS_ADDRESS` on this process's first call
/// and keeps that connection, so every test that uses a ``SecretServiceCredentialStore`` in
/// this process gets it through ``store(namespace:)``, which points the variable at the
/// throwaway bus before any libsecret call can happen. Tests that need another bus (a locked
/// keyring, no keyring, no bus) run the store in a child process (`secret-service-probe`).
enum SharedSecretService {
    private static let started: Result<ThrowawaySecretService, ThrowawaySecretServiceUnavailable> = {
        let result: Result<ThrowawaySecretService, ThrowawaySecretServiceUnavailable>
        do throws(ThrowawaySecretServiceUnavailable) {
            let service = try ThrowawaySecretService.start(.unlockedKeyring)
            service.useInThisProcess()
            result = .success(service)
        } catch {
            result = .failure(error)
        }
        atexit { SharedSecretService.stopAtExit() }
        return result
    }()

    /// The running service (and this process now talks to it).
    ///
    /// - Throws: ``ThrowawaySecretServiceUnavailable``; CI installs gnome-keyring and dbus
    ///   (`Scripts/setup.sh`), so these tests fail rather than skip.
    static func service() throws -> ThrowawaySecretService {
        try started.get()
    }

    /// A store in a fresh namespace on the shared service.
    static func store(namespace: String = "test-\(UUID().uuidString.lowercased())") throws -> SecretServiceCredentialStore {
        _ = try service()
        return SecretServiceCredentialStore(namespace: namespace)
    }

    private static func stopAtExit() {
        if case .success(let service) = started { service.stop() }
    }
}
