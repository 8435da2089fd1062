internal import CSodium

/// One-time libsodium initialisation shared by every crypto entry point.
enum Sodium {
    /// `sodium_init()` is thread-safe and idempotent; a `static let` runs it once per process.
    private static let initialised: Bool = sodium_init() >= 0

    /// Call before any libsodium function. Traps if libsodium cannot start,
    /// because no primitive below can be trusted in that case.
    static func ensureInitialised() {
        precondition(initialised, "libsodium failed to initialise")
    }
}
