import AccountHandoff
import AccountHandoffImport
import CLibSecret
import Foundation

/// A ``AccountHandoffImport/CredentialStore`` in the Linux desktop's keyring, through the
/// Secret Service API (GNOME Keyring, KWallet, KeePassXC) and libsecret.
///
/// Every item carries three attributes of the schema `org.accounthandoff.Credential`:
/// `handoff-store` (this store's namespace, so two stores never see each other's items),
/// `handoff-state` (`staged` or `active`) and `handoff-item` (the staged name, or the local
/// account ID of an active item). Items go to the default collection.
///
/// The semantics follow the reference store's credential files: ``stage(_:)`` writes a new
/// item under a fresh name; ``activate(_:for:)`` writes the account's active item (replacing
/// the previous one), then deletes the staged item, so a crash between the two leaves the
/// staged item for recovery to activate again; ``discard(_:)`` and ``deleteCredential(of:)``
/// treat a missing item as success.
///
/// Password bytes go from guarded memory (``AccountHandoff/SecretBytes``) into a libsecret
/// `SecretValue` (non-pageable memory) and back, with no other copy in this process; D-Bus
/// carries them inside the Secret Service's encrypted session.
///
/// Every method makes synchronous D-Bus calls and so blocks: call them on the
/// ``AccountHandoff/BlockingIOPool`` (``AccountHandoffImport/ImportCoordinator`` and the
/// receiver session do).
///
/// - Warning: libsecret connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` when
///   this process first uses it and keeps that connection: set the variable before the first
///   call if it must differ from the inherited one.
public final class SecretServiceCredentialStore: CredentialStore, Sendable {
    /// Longest accepted namespace.
    public static let maximumNamespaceLength = 128

    /// The namespace every item of this store carries.
    public let namespace: String
    /// The language of the labels this store gives the items it writes (keyring managers
    /// show them); items are found by their attributes, so a label in another language
    /// changes nothing.
    public let language: HandoffLanguage
    private let hook: SecretServiceStepHook?

    /// A store whose items carry `namespace`.
    ///
    /// - Parameters:
    ///   - namespace: 1 to 128 characters of `A-Z a-z 0-9 . _ -`, unique to this store and
    ///     kept by the caller (for example a random UUID saved next to the account metadata).
    ///   - language: The language of the items' labels; the process's language by default.
    /// - Warning: two stores with the same namespace share their items; recovery of one would
    ///   delete the other's staged items.
    public convenience init(namespace: String, language: HandoffLanguage = .current) {
        self.init(namespace: namespace, language: language, stepHook: nil)
    }

    /// ``init(namespace:language:)`` with a hook called at every ``SecretServiceStep`` (tests only).
    package init(namespace: String, language: HandoffLanguage = .current, stepHook: SecretServiceStepHook?) {
        precondition(Self.isValidNamespace(namespace), "a Secret Service namespace is 1 to 128 characters of A-Z a-z 0-9 . _ -")
        self.namespace = namespace
        self.language = language
        self.hook = stepHook
    }

    /// Whether `text` is accepted as a namespace.
    public static func isValidNamespace(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumNamespaceLength else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": true
            default: false
            }
        }
    }

    /// Checks, with D-Bus calls that never prompt and before any password travels, that a
    /// session bus is reachable, that a Secret Service answers on it, and that its default
    /// collection exists and is unlocked.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/sessionBusUnavailable``,
    ///   ``AccountHandoffImport/CredentialStoreError/secretServiceUnavailable``,
    ///   ``AccountHandoffImport/CredentialStoreError/keyringHasNoDefaultCollection``,
    ///   ``AccountHandoffImport/CredentialStoreError/keyringLocked``.
    public func checkCredentialsWritable() throws(CredentialStoreError) {
        try SecretServiceReachability.requireWritableDefaultCollection()
    }

    /// Writes `credential` as a new staged item `staged-<uuid>` and returns its name.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/emptyCredential``, the errors of
    ///   ``checkCredentialsWritable()`` (checked first, so a locked keyring never prompts), or
    ///   a Secret Service failure.
    public func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential {
        guard credential.count > 0 else { throw .emptyCredential }
        try checkCredentialsWritable()
        guard let staged = StagedCredential(name: "staged-\(UUID().uuidString.lowercased())") else {
            preconditionFailure("a UUID-based staged name is always valid")
        }
        // The bytes go from guarded memory into a SecretValue (libsecret's non-pageable memory).
        let value = credential.withUnsafeBytes { bytes in
            secret_value_new(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count, "text/plain")!
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        try SecretServiceCalls.store(value, attributes: stagedAttributes(staged), label: stagedLabel(staged))
        return staged
    }

    /// Writes the staged item's secret as the active item of `account` (replacing the
    /// previous one), then deletes the staged item. The secret moves as a `SecretValue` and
    /// never enters Swift memory.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/credentialNotFound`` when the
    ///   staged item does not exist, the errors of ``checkCredentialsWritable()``, or a Secret
    ///   Service failure.
    public func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        try checkCredentialsWritable()
        guard let value = try SecretServiceCalls.lookup(stagedAttributes(staged)) else { throw .credentialNotFound }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        try SecretServiceCalls.store(value, attributes: activeAttributes(account), label: activeLabel(account))
        try reach(.activateActiveItemStored)
        try SecretServiceCalls.clear(stagedAttributes(staged))
    }

    /// Deletes the staged item; a missing one is success.
    ///
    /// - Throws: the errors of ``checkCredentialsWritable()`` (checked first, so a locked
    ///   keyring never prompts), or a Secret Service failure.
    public func discard(_ staged: StagedCredential) throws(CredentialStoreError) {
        try checkCredentialsWritable()
        try SecretServiceCalls.clear(stagedAttributes(staged))
    }

    /// The staged items of this namespace, sorted by name.
    public func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] {
        try SecretServiceCalls.items(matching: ItemAttributes(namespace: namespace, state: .staged, item: nil))
            .compactMap { StagedCredential(name: $0) }
    }

    /// The accounts of this namespace with an active item, sorted.
    public func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] {
        try SecretServiceCalls.items(matching: ItemAttributes(namespace: namespace, state: .active, item: nil))
            .compactMap { LocalAccountID(rawValue: $0) }
    }

    /// Deletes the active item of `account`; a missing one is success.
    ///
    /// - Throws: the errors of ``checkCredentialsWritable()`` (checked first), or a Secret
    ///   Service failure.
    public func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError) {
        try checkCredentialsWritable()
        try SecretServiceCalls.clear(activeAttributes(account))
    }

    /// The active credential of `account`, copied from libsecret's memory straight into
    /// guarded memory.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/credentialNotFound`` when the
    ///   account has no active item, or a Secret Service failure (a locked keyring may prompt).
    public func credential(of account: LocalAccountID) throws(CredentialStoreError) -> SecretBytes {
        try read(activeAttributes(account))
    }

    /// The secret of a staged item (while its activation is pending, it is the account's
    /// committed credential), copied straight into guarded memory.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/credentialNotFound`` when the
    ///   item does not exist, or a Secret Service failure.
    public func credential(staged: StagedCredential) throws(CredentialStoreError) -> SecretBytes {
        try read(stagedAttributes(staged))
    }

    // MARK: Items

    private func read(_ attributes: ItemAttributes) throws(CredentialStoreError) -> SecretBytes {
        guard let value = try SecretServiceCalls.lookup(attributes) else { throw .credentialNotFound }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length = 0
        guard let bytes = secret_value_get(value, &length), length > 0 else { throw .emptyCredential }
        do { return try GuardedCopy.make(UnsafeRawBufferPointer(start: bytes, count: length)) } catch {
            throw .failed(StoreFailure(operation: "guarded allocation", domain: .posix, code: ENOMEM))
        }
    }

    private func stagedAttributes(_ staged: StagedCredential) -> ItemAttributes {
        ItemAttributes(namespace: namespace, state: .staged, item: staged.name)
    }

    private func activeAttributes(_ account: LocalAccountID) -> ItemAttributes {
        ItemAttributes(namespace: namespace, state: .active, item: account.rawValue)
    }

    /// The labels keyring managers show: no secret, no account data beyond the local ID.
    private func stagedLabel(_ staged: StagedCredential) -> String {
        sentenceCatalog.sentence("label.staged", .text(staged.name), .text(namespace), in: language)
    }

    private func activeLabel(_ account: LocalAccountID) -> String {
        sentenceCatalog.sentence("label.active", .text(account.rawValue), .text(namespace), in: language)
    }

    /// Where `account`'s password is, for people: the item's label as keyring managers show
    /// it, and the attributes that find it (for example with `secret-tool lookup`). Never a
    /// secret; the keyring is not asked.
    public func activeItem(for account: LocalAccountID) -> (label: String, attributes: [(name: String, value: String)]) {
        (activeLabel(account), [
            (ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STORE, namespace),
            (ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STATE, ItemAttributes.State.active.rawValue),
            (ACCOUNTHANDOFF_SECRET_ATTRIBUTE_ITEM, account.rawValue),
        ])
    }

    private func reach(_ step: SecretServiceStep) throws(CredentialStoreError) {
        if let failure = hook?(step) { throw .failed(failure) }
    }
}
