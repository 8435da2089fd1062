import AccountHandoff

/// Imports a delivered account as a transaction, on the receiving device.
///
/// Use one coordinator per store. Give it to a ``AccountHandoff/HandoffReceiverSession`` as
/// its importer (``AccountHandoff/AccountImporter``); the session drives the import:
/// 1. On start, call ``recover()``: it finishes or removes whatever a crash left behind.
/// 2. When the account is offered, the session calls ``prepareImport(of:)``, which runs
///    ``prepare(offer:)``: it claims the account's link ID, checks that both stores are
///    usable and finds conflicts, all before the password travels. The session's
///    `accountOffered` update carries the ``PreparedImport``: show its
///    ``PreparedImport/conflict`` side by side, and pass the person's choice to
///    `accept(choosing:)`.
/// 3. When the password arrives, the session calls ``PreparedImport/importAccount(_:)``:
///    it stages the credential under a fresh name, validates the account against its server
///    and commits or rolls back; the session sends the receipt and reports the import's
///    sentence (``ImportOutcome/message(in:)``) as its final update's detail.
///
/// Call ``prepare(offer:)`` and ``PreparedImport/complete(with:)`` yourself only when you
/// import without a receiver session.
///
/// The old account stays intact and usable until the metadata commit, the single point of
/// no return. A crash at any step leaves either the complete old account or the complete new
/// one; ``recover()`` then removes staged leftovers or finishes the activation.
///
/// The stores' methods block (a database, files, a keyring), so ``recover()`` and
/// ``prepare(offer:)`` block too: call them on the ``AccountHandoff/BlockingIOPool`` (or a
/// thread of your own), never on a Swift concurrency thread. The receiver session does so
/// through ``prepareImport(of:)``, and ``PreparedImport/complete(with:)`` runs every store
/// call there itself.
public final class ImportCoordinator: Sendable {
    let metadataStore: any AccountMetadataStore
    let credentialStore: any CredentialStore
    let validator: any AccountValidator
    let makeAccountID: @Sendable () -> LocalAccountID
    let inFlight = InFlightImports()

    /// Creates a coordinator over the app's parts.
    ///
    /// - Parameters:
    ///   - metadataStore: where account metadata lives (never a secret).
    ///   - credentialStore: where credentials live, with staging.
    ///   - validator: checks the account against its mail server before the commit.
    ///   - makeAccountID: makes the local ID of an added account (random by default).
    public init(metadataStore: any AccountMetadataStore, credentialStore: any CredentialStore,
                validator: any AccountValidator,
                makeAccountID: @escaping @Sendable () -> LocalAccountID = { LocalAccountID.random() }) {
        self.metadataStore = metadataStore
        self.credentialStore = credentialStore
        self.validator = validator
        self.makeAccountID = makeAccountID
    }

    /// Brings the stores to a consistent state after a crash; call it when the app starts.
    /// Blocks (see above).
    ///
    /// Under an exclusive recovery lease: finishes every committed but unfinished activation,
    /// deletes every staged credential no account refers to, deletes active credentials whose
    /// account is gone, and reports accounts without any credential. When an import holds a
    /// lease, nothing is touched and the report says so.
    ///
    /// - Throws: the store error that stopped recovery; it is safe to call again.
    public func recover() throws(ImportError) -> RecoveryReport {
        try Recovery(metadataStore: metadataStore, credentialStore: credentialStore).run()
    }

    /// Starts importing `offer`, before its password travels. Blocks (see above).
    ///
    /// Claims the link ID (a second import of it in this process fails at once), runs
    /// ``recover()`` when possible so stale staged items are gone, takes an import lease,
    /// checks that both stores are writable, and finds conflicting accounts.
    ///
    /// - Throws: ``ImportError/importInProgress(_:)`` for a concurrent import of the same
    ///   link ID; a store error when a store is unusable. Reject the session then: the
    ///   password has not travelled.
    public func prepare(offer: AccountMetadata) throws(ImportError) -> PreparedImport {
        guard inFlight.claim(offer.linkID) else { throw .importInProgress(offer.linkID) }
        do throws(ImportError) {
            let recovery = try recover()
            let lease: ImportLease
            do { lease = try metadataStore.acquireImportLease() } catch { throw .metadataStore(error) }
            do throws(ImportError) {
                do { try metadataStore.checkMetadataWritable() } catch { throw .metadataStore(error) }
                do { try credentialStore.checkCredentialsWritable() } catch { throw .credentialStore(error) }
                do { try validator.checkReady() } catch { throw .validatorNotReady(error) }
                let accounts: [StoredAccount]
                do { accounts = try metadataStore.accounts() } catch { throw .metadataStore(error) }
                return PreparedImport(coordinator: self, offer: offer, accounts: accounts, recovery: recovery, lease: lease)
            } catch {
                lease.release()
                throw error
            }
        } catch {
            inFlight.release(offer.linkID)
            throw error
        }
    }
}
