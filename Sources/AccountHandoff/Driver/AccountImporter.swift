/// Imports an offered account on the receiving device in two phases, inside the receiver
/// session (Spec 6.2): prepared when the offer arrives, before the password travels; completed
/// when it arrives. `ImportCoordinator` (module `AccountHandoffImport`) is one.
public protocol AccountImporter: Sendable {
    /// What the app shows next to the offered account and lets the person decide on (for
    /// example the conflicting stored accounts and the choices that apply).
    associatedtype Preparation: AccountImportPreparation

    /// The offer arrived: check that this device can store it and find conflicts, before the
    /// password travels.
    ///
    /// - Throws: ``ImportNotReady/storeUnavailable(reason:)`` when the store cannot take the
    ///   account now (locked, unwritable, full, keychain locked or missing): the session then
    ///   stops with `storeUnavailable` and the sending device is told; nothing is sent.
    func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> Preparation
}

/// One prepared import, from the offer until its outcome.
public protocol AccountImportPreparation: Sendable {
    /// What the person may choose about the offered account (for `PreparedImport`: replace a
    /// conflicting account, keep both, or cancel); `Never` for an importer that asks nothing.
    associatedtype Choice: Sendable = Never

    /// Records the person's choice; ``HandoffReceiverSession/accept(choosing:)`` calls it
    /// before anything else.
    ///
    /// - Returns: whether the session goes on to accept, or declines the account (the person
    ///   chose not to import).
    /// - Throws: ``ImportNotReady/choiceRequired`` for a choice that does not apply (nothing
    ///   happens; ask again).
    func record(_ choice: Choice) throws(ImportNotReady) -> ImportDecision

    /// The person accepts: checks that every conflict has a choice and that the store is
    /// still writable. The session calls it before it authenticates the person and before
    /// anything is sent, on the ``BlockingIOPool``: it may block (a database, a keyring).
    ///
    /// - Throws: ``ImportNotReady/choiceRequired`` (nothing happens; ask the person, then
    ///   accept again) or ``ImportNotReady/storeUnavailable(reason:)`` (the session stops).
    func checkReady() throws(ImportNotReady)

    /// Whether ``checkReady()`` may block (it asks a database or a keyring): the session then
    /// calls it on the ``BlockingIOPool``; a preparation that only reads memory says `false`
    /// and is checked in place. `true` unless a preparation says otherwise.
    var checkReadyMayBlock: Bool { get }

    /// The password arrived: store the account, validate it, commit or roll back. If the task
    /// is cancelled (the person cancelled during the import), roll back and report
    /// ``ReceiptStatus/cancelled``.
    ///
    /// - Parameter account: the delivered account. Read its credential; do not keep a
    ///   reference: the receiver session (``HandoffReceiverSession``) wipes the delivered
    ///   credential as soon as the importer's `importAccount(_:)` returns (Spec 6.5).
    /// - Returns: the receipt status and a sentence for the person.
    func importAccount(_ account: ImportedAccount) async -> ImportReport

    /// The session ended before the password arrived: release whatever the preparation holds.
    /// Nothing was changed.
    func abandon()
}

extension AccountImportPreparation {
    /// A preparation may block when it checks, unless it says otherwise.
    public var checkReadyMayBlock: Bool { true }
}

extension AccountImportPreparation where Choice == Never {
    /// An importer that asks nothing has no choice to record.
    public func record(_ choice: Never) throws(ImportNotReady) -> ImportDecision {}
}

/// What a person's choice about an offered account asks of the session.
public enum ImportDecision: Sendable, Hashable {
    /// Accept the account: authenticate the person, then let the password travel.
    case importAccount
    /// Decline the account: the session ends as rejected on both devices; nothing travels.
    case decline
}

/// What an import did: the receipt status sent to the sending device and a sentence for the
/// receiving person (for example which server could not be reached).
public struct ImportReport: Sendable, Hashable {
    /// What the receipt tells the sending device.
    public let status: ReceiptStatus
    /// A whole sentence for the receiving person; never a secret.
    public let message: String

    /// A report.
    public init(status: ReceiptStatus, message: String) {
        self.status = status
        self.message = message
    }
}

/// Why an import cannot go ahead yet.
public enum ImportNotReady: Error, Sendable, Hashable {
    /// The offer conflicts with a stored account and the person has not chosen what to do.
    case choiceRequired
    /// The store cannot take the account now; `reason` is a whole, secret-free sentence.
    case storeUnavailable(reason: String)
}

extension ImportNotReady: TranslatedSentence {
    /// The sentence for people.
    /// - Parameter language: The language to say it in; a `storeUnavailable` reason is shown as the importer wrote it.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .choiceRequired:
            sentenceCatalog.sentence("importNotReady.choiceRequired", in: language)
        case .storeUnavailable(let reason):
            reason.isEmpty ? sentenceCatalog.sentence("importNotReady.storeUnavailable", in: language) : reason
        }
    }
}
