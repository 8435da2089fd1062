import AccountHandoff

/// Finds stored accounts that an offered account would collide with. Pure.
public enum ConflictDetector {
    /// The conflict for `offer` among `accounts`, or `nil` when it can be added as it is.
    ///
    /// An account conflicts when it has the same link ID, or the same e-mail address
    /// (compared case-insensitively), IMAP host (case-insensitively, a trailing dot ignored)
    /// and IMAP port.
    public static func conflict(for offer: AccountMetadata, among accounts: [StoredAccount]) -> ImportConflict? {
        let existing = accounts.compactMap { account -> ConflictingAccount? in
            let reasons = reasons(offer, account.metadata)
            guard !reasons.isEmpty else { return nil }
            return ConflictingAccount(account: account, reasons: reasons,
                                      comparison: ComparedField.compare(offered: offer, existing: account.metadata))
        }
        .sorted { $0.account.id < $1.account.id }
        return existing.isEmpty ? nil : ImportConflict(offered: offer, existing: existing)
    }

    /// Why `stored` conflicts with `offer` (empty when it does not).
    public static func reasons(_ offer: AccountMetadata, _ stored: AccountMetadata) -> ConflictReasons {
        var reasons: ConflictReasons = []
        if offer.linkID == stored.linkID { reasons.insert(.sameLinkID) }
        if offer.emailAddress.lowercased() == stored.emailAddress.lowercased(),
           normalisedHost(offer.imapHost) == normalisedHost(stored.imapHost),
           offer.imapPort == stored.imapPort {
            reasons.insert(.sameAddressAndServer)
        }
        return reasons
    }

    /// The conflicting accounts' identities and revisions: what a commit compares to detect
    /// that the accounts changed after the person decided.
    static func fingerprint(for offer: AccountMetadata, among accounts: [StoredAccount]) -> [AccountRevision] {
        accounts.filter { !reasons(offer, $0.metadata).isEmpty }
            .map { AccountRevision(id: $0.id, revision: $0.revision) }
            .sorted { $0.id < $1.id }
    }

    private static func normalisedHost(_ host: String) -> String {
        var lowered = host.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }
}

/// An account's identity at one revision.
struct AccountRevision: Hashable, Sendable {
    let id: LocalAccountID
    let revision: UInt64
}
