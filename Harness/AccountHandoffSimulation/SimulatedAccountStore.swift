import AccountHandoff

/// A device's account store (its database plus Keychain) reduced to what the safety
/// properties talk about: which accounts exist and with which password.
///
/// Test support only. Passwords are kept in guarded memory like a real Keychain would keep them.
public final class SimulatedAccountStore {
    /// One stored account.
    public struct Entry {
        /// The account's metadata, link ID included.
        public let metadata: AccountMetadata
        /// The stored password.
        public let password: SecretBytes
    }

    /// The stored accounts by cross-device link ID.
    public private(set) var entries: [AccountLinkID: Entry] = [:]
    /// How many writes happened; a store that was never written to has 0.
    public private(set) var writeCount = 0

    /// An empty store.
    public init() {}

    /// Stores (or replaces) an account with a copy of `password`, which must not be wiped.
    ///
    /// - Throws: ``InvariantViolation`` when no guarded memory is left for the copy.
    public func store(_ metadata: AccountMetadata, password: SecretBytes) throws(InvariantViolation) {
        let copy: SecretBytes
        do { copy = try password.copy() } catch {
            throw InvariantViolation("no guarded memory to store a password: \(error.identifier)")
        }
        entries[metadata.linkID] = Entry(metadata: metadata, password: copy)
        writeCount += 1
    }

    /// One account as the summary shows it.
    public struct Summary: Hashable, Sendable {
        /// The account, link ID included.
        public let metadata: AccountMetadata
        /// The stored password's length.
        public let passwordByteCount: Int
    }

    /// A comparable summary: each account's metadata and password length, ordered by link ID.
    public func snapshot() -> [Summary] {
        entries.values.map { Summary(metadata: $0.metadata, passwordByteCount: $0.password.count) }
            .sorted { $0.metadata.linkID.bytes.lexicographicallyPrecedes($1.metadata.linkID.bytes) }
    }

    /// Whether the store still holds exactly `snapshot`, taken when it had made `writes` writes.
    /// A store not written to since then holds it without a comparison (only ``store(_:password:)``
    /// changes the entries, and it counts every write).
    public func holds(_ snapshot: [Summary], takenAfter writes: Int) -> Bool {
        writeCount == writes || self.snapshot() == snapshot
    }

    /// Whether the stored password for `linkID` is exactly `expected`.
    public func password(for linkID: AccountLinkID, equals expected: [UInt8]) -> Bool {
        guard let entry = entries[linkID], !entry.password.isWiped else { return false }
        return entry.password.constantTimeEquals(expected)
    }
}
