import AccountHandoff

/// A held claim on the store: while an import holds one, recovery elsewhere leaves staged
/// credentials alone; while recovery holds one, no import runs. Released by ``release()`` or
/// when the lease is deallocated.
public final class ImportLease: Sendable {
    private let released = OnceFlag()

    /// A lease that runs `onRelease` exactly once, when released.
    public init(onRelease: @escaping @Sendable () -> Void) {
        released.whenSet(onRelease)
    }

    /// Gives the claim back. Idempotent.
    public func release() {
        released.set()
    }

    /// Whether ``release()`` has run.
    public var isReleased: Bool { released.isSet }

    deinit { release() }
}
