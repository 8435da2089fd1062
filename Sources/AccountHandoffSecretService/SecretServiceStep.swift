import AccountHandoffImport

/// A named point inside a Secret Service store operation, where test hooks inject a failure
/// or stop the process. Package-internal: apps never see it.
package enum SecretServiceStep: String, CaseIterable, Sendable {
    /// Activation wrote the account's active item; the staged item is not deleted yet.
    case activateActiveItemStored = "activate.activeItemStored"
}

/// Called at each ``SecretServiceStep``; returning a failure makes the operation fail there.
package typealias SecretServiceStepHook = @Sendable (SecretServiceStep) -> StoreFailure?
