import AccountHandoff

/// The coordinator is the receiver session's importer (Spec 6.2): the session prepares the
/// import when the account is offered and completes it when the password arrives, so an app
/// writes no adapter.
extension ImportCoordinator: AccountImporter {
    /// ``prepare(offer:)`` for the session, on the ``AccountHandoff/BlockingIOPool`` (the stores
    /// block): a store that cannot take the account becomes
    /// ``ImportNotReady/storeUnavailable(reason:)`` with the sentence of
    /// ``ImportOutcome/message(in:)`` in ``AccountHandoff/HandoffLanguage/current``.
    public func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> PreparedImport {
        try await BlockingIOPool.shared.run { _ throws(ImportNotReady) in
            do throws(ImportError) {
                return try self.prepare(offer: offer)
            } catch {
                throw .storeUnavailable(reason: ImportOutcome.declined(.failed(error)).message(in: .current))
            }
        }
    }
}

extension PreparedImport: AccountImportPreparation {
    /// ``choose(_:)`` for the session: ``ImportChoice/cancel`` declines the account.
    ///
    /// - Throws: ``AccountHandoff/ImportNotReady/choiceRequired`` for a choice outside
    ///   ``ImportConflict/allowedChoices`` or after the import ended.
    public func record(_ choice: ImportChoice) throws(ImportNotReady) -> ImportDecision {
        do { try choose(choice) } catch { throw .choiceRequired }
        return choice == .cancel ? .decline : .importAccount
    }

    /// Ready when every conflict has a choice and both stores are still writable. Asks the
    /// stores, so it blocks: the receiver session calls it on the ``AccountHandoff/BlockingIOPool``.
    public func checkReady() throws(ImportNotReady) {
        guard hasChoiceIfNeeded else { throw .choiceRequired }
        do { try checkStoresWritable() } catch {
            throw .storeUnavailable(reason: ImportOutcome.declined(.failed(error)).message(in: .current))
        }
    }

    /// Stages, validates and commits or rolls back; the report's sentence is
    /// ``ImportOutcome/message(in:)`` in ``AccountHandoff/HandoffLanguage/current``. Cancelling the task rolls back and reports
    /// ``ReceiptStatus/cancelled``. The credential is only read: the receiver session
    /// (``AccountHandoff/HandoffReceiverSession``) wipes the delivered credential as soon as
    /// the importer's `importAccount(_:)` returns.
    public func importAccount(_ account: ImportedAccount) async -> ImportReport {
        let outcome = await complete(with: account)
        return ImportReport(status: outcome.receiptStatus, message: outcome.message(in: .current))
    }

    /// Ends the import before the password arrived; nothing was changed.
    public func abandon() { cancel() }
}
