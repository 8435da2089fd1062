#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ThrowawaySecretService {
    private static let shared: Result<ThrowawaySecretService, ThrowawaySecretServiceUnavailable> = {
        let result: Result<ThrowawaySecretService, ThrowawaySecretServiceUnavailable>
        do throws(ThrowawaySecretServiceUnavailable) {
            let service = try ThrowawaySecretService.start(.unlockedKeyring)
            service.useInThisProcess()
            result = .success(service)
        } catch {
            result = .failure(error)
        }
        atexit { ThrowawaySecretService.stopSharedAtExit() }
        return result
    }()

    /// The one unlocked throwaway keyring of this process, started on first use, stopped when
    /// the process exits; this process's `DBUS_SESSION_BUS_ADDRESS` points at it from then on
    /// (so its children, which inherit the environment, use it too).
    ///
    /// Every test target shares it: `swift test` runs them all in one process, where libsecret
    /// keeps the first bus it connected to, so two such keyrings would split a test from its
    /// children.
    ///
    /// - Throws: ``ThrowawaySecretServiceUnavailable`` when it could not start.
    public static func sharedForThisProcess() throws(ThrowawaySecretServiceUnavailable) -> ThrowawaySecretService {
        try shared.get()
    }

    private static func stopSharedAtExit() {
        if case .success(let service) = shared { service.stop() }
    }
}
