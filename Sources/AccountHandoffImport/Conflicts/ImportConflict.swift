import AccountHandoff

/// A stored account that conflicts with the offered one, with the detail to show both side by side.
public struct ConflictingAccount: Hashable, Sendable {
    /// The stored account.
    public let account: StoredAccount
    /// Why it conflicts.
    public let reasons: ConflictReasons
    /// Offered and stored values, field by field.
    public let comparison: [ComparedField]
}

/// What the person must decide before the password travels: the offered account matches
/// stored ones. The person chooses one of ``allowedChoices``.
public struct ImportConflict: Hashable, Sendable {
    /// The offered account.
    public let offered: AccountMetadata
    /// The conflicting stored accounts, sorted by local ID.
    public let existing: [ConflictingAccount]

    /// Whether "keep both" is possible: only when no stored account has the offered link ID.
    /// The link ID is the cross-device identity, so two local accounts never share one.
    public var canKeepBoth: Bool {
        !existing.contains { $0.reasons.contains(.sameLinkID) }
    }

    /// The choices to offer: replacing the account with the same link ID (or any account
    /// with the same address and server when none has the link ID), keeping both when
    /// allowed, and cancelling.
    public var allowedChoices: [ImportChoice] {
        let sameLink = existing.filter { $0.reasons.contains(.sameLinkID) }
        let replaceable = sameLink.isEmpty ? existing : sameLink
        var choices = replaceable.map { ImportChoice.replace($0.account.id) }
        if canKeepBoth { choices.append(.keepBoth) }
        choices.append(.cancel)
        return choices
    }
}

/// The person's answer to an ``ImportConflict``.
public enum ImportChoice: Hashable, Sendable {
    /// Replace this stored account: its local ID stays, every metadata field (including the
    /// link ID) and the credential become the offered ones.
    case replace(LocalAccountID)
    /// Add the offered account under a new local ID, with its link ID preserved, and keep
    /// the stored one unchanged.
    case keepBoth
    /// Do not import; nothing changes and the password is not requested.
    case cancel
}
