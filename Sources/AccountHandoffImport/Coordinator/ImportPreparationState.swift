import AccountHandoff
import Foundation

/// The locked state of one prepared import, the same for every importer: open (with the
/// person's choice about a conflict, once made), running, finished. The importer keeps what
/// it holds (a lease, a profile lock) and releases it when a step here says the import ended.
package final class ImportPreparationState: @unchecked Sendable {
    // Safety of @unchecked Sendable: `state` is only touched under `lock`; the rest is immutable.
    private enum State {
        case open(choice: ImportChoice?)
        case running
        case finished
    }

    /// What the person may choose about the conflict (`[.cancel]` without one).
    package let allowedChoices: [ImportChoice]
    private let hasConflict: Bool
    private let lock = NSLock()
    private var state = State.open(choice: nil)

    /// The state of an import that was just prepared.
    ///
    /// - Parameters:
    ///   - hasConflict: whether the offer conflicts with stored accounts, so that a choice is
    ///     needed before the import can run.
    ///   - allowedChoices: the choices ``record(_:)`` accepts.
    package init(hasConflict: Bool, allowedChoices: [ImportChoice]) {
        self.hasConflict = hasConflict
        self.allowedChoices = allowedChoices
    }

    /// Records the person's choice. Choosing ``ImportChoice/cancel`` ends the import.
    ///
    /// - Returns: whether the choice ended the import (the importer releases what it holds).
    /// - Throws: ``ImportError/choiceNotAllowed(_:)`` for a choice outside ``allowedChoices``;
    ///   ``ImportError/alreadyFinished`` when the import is no longer open.
    package func record(_ choice: ImportChoice) throws(ImportError) -> Bool {
        guard allowedChoices.contains(choice) else { throw .choiceNotAllowed(choice) }
        let recorded: Bool = lock.withLock {
            guard case .open = state else { return false }
            state = choice == .cancel ? .finished : .open(choice: choice)
            return true
        }
        guard recorded else { throw .alreadyFinished }
        return choice == .cancel
    }

    /// Whether the import can run as things stand: open, and without a conflict or with a
    /// choice other than cancel.
    package var canRun: Bool {
        lock.withLock {
            guard case .open(let choice) = state else { return false }
            return !hasConflict || choice != nil
        }
    }

    /// Ends the import unless it is running.
    ///
    /// - Returns: `false` when it is running (and goes on); `true` when it has ended (the
    ///   importer releases what it holds).
    package func endUnlessRunning() -> Bool {
        lock.withLock {
            if case .running = state { return false }
            state = .finished
            return true
        }
    }

    /// Ends the import after it ran; the importer releases what it holds.
    package func finish() {
        lock.withLock { state = .finished }
    }

    /// How ``begin(delivered:offer:plan:)`` went.
    package enum Start<Plan> {
        /// The import runs now with this plan.
        case run(Plan)
        /// The import cannot run; when `ended`, the importer releases what it holds.
        case refused(ImportError, ended: Bool)
    }

    /// Moves an open import to running with the plan for the person's choice, or says why it
    /// cannot run: no choice yet, no longer open, a refusal of `plan`, or a delivered account
    /// that is not the offered one (which ends the import).
    ///
    /// - Parameters:
    ///   - delivered: the metadata the session delivered.
    ///   - offer: the metadata the person saw.
    ///   - plan: the importer's plan for adding the account (`nil`) or replacing the stored
    ///     account with this ID; it runs under the state's lock and may refuse (an account
    ///     that changed meanwhile, say).
    package func begin<Plan>(delivered: AccountMetadata, offer: AccountMetadata,
                             plan: (LocalAccountID?) -> Result<Plan, ImportError>) -> Start<Plan> {
        lock.withLock {
            guard case .open(let choice) = state else { return .refused(.alreadyFinished, ended: false) }
            let planned: Result<Plan, ImportError>
            switch (hasConflict, choice) {
            case (false, _), (true, .keepBoth?): planned = plan(nil)
            case (true, .replace(let id)?): planned = plan(id)
            case (true, nil): return .refused(.choiceRequired, ended: false)
            case (true, .cancel?): return .refused(.alreadyFinished, ended: false)
            }
            switch planned {
            case .failure(let error): return .refused(error, ended: false)
            case .success(let chosen):
                guard delivered == offer else {
                    state = .finished
                    return .refused(.deliveredAccountDiffersFromOffer, ended: true)
                }
                state = .running
                return .run(chosen)
            }
        }
    }
}
