import AccountHandoff
import Foundation

/// The link IDs with an import running in this process; the first claim wins.
final class InFlightImports: @unchecked Sendable {
    // Safety of @unchecked Sendable: `claimed` is only touched under `lock`.
    private let lock = NSLock()
    private var claimed: Set<AccountLinkID> = []

    /// Claims `linkID`; false when another import holds it.
    func claim(_ linkID: AccountLinkID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return claimed.insert(linkID).inserted
    }

    func release(_ linkID: AccountLinkID) {
        lock.lock()
        defer { lock.unlock() }
        claimed.remove(linkID)
    }
}
