/// The account an authenticated offer carried (Spec 3.4), held once per session: the receiver's
/// states from `reviewingOffer` on, and `finished`, share this one reference, so a transition
/// moves a pointer instead of copying the account's strings.
final class ReceivedAccount: Sendable {
    /// The offered account, as the receiving person was shown it.
    let metadata: AccountMetadata

    init(_ metadata: AccountMetadata) {
        self.metadata = metadata
    }
}
