import AccountHandoff
import AccountHandoffSecretService
import Foundation
import ThrowawaySecretService

/// The throwaway Secret Service (its own session bus and an unlocked gnome-keyring) shared by
/// the whole test process (``ThrowawaySecretService/sharedForThisProcess()``).
///
/// libsecret connects to the bus in `DBUS_SESSION_BUS_ADDRESS` on this process's first call
/// and keeps that connection, so every test that uses a ``SecretServiceCredentialStore`` in
/// this process gets it through ``store(namespace:)``, which points the variable at the
/// throwaway bus before any libsecret call can happen. Tests that need another bus (a locked
/// keyring, no keyring, no bus) run the store in a child process (`secret-service-probe`).
enum SharedSecretService {
    /// The running service (and this process now talks to it).
    ///
    /// - Throws: ``ThrowawaySecretServiceUnavailable``; CI installs gnome-keyring and dbus
    ///   (`Scripts/setup.sh`), so these tests fail rather than skip.
    static func service() throws -> ThrowawaySecretService {
        try ThrowawaySecretService.sharedForThisProcess()
    }

    /// A store in a fresh namespace on the shared service.
    static func store(namespace: String = "test-\(UUID().uuidString.lowercased())",
                      language: HandoffLanguage = .current) throws -> SecretServiceCredentialStore {
        _ = try service()
        return SecretServiceCredentialStore(namespace: namespace, language: language)
    }
}
