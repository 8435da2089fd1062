#if canImport(Observation)
import Observation

/// A sending session's ``SenderSnapshot`` on the main actor, observable (SwiftUI redraws what
/// read it): a view reads ``snapshot`` synchronously; the app's view model keeps only the
/// person's decisions (``HandoffSenderSession/enterCode(_:)``, ``HandoffSenderSession/cancel()``).
@MainActor @Observable public final class SenderModel {
    /// What to show now.
    public private(set) var snapshot: SenderSnapshot

    /// A model that follows `session` until it ends.
    public init(following session: HandoffSenderSession) {
        snapshot = session.snapshot
        let changes = session.snapshotChanges()
        Task { [weak self] in
            for await next in changes { self?.snapshot = next }
        }
    }
}

/// A receiving session's ``ReceiverSnapshot`` on the main actor, observable (SwiftUI redraws
/// what read it): a view reads ``snapshot`` synchronously; the app's view model keeps only the
/// person's decisions (``HandoffReceiverSession/accept(choosing:)``, ``HandoffReceiverSession/cancel()``).
@MainActor @Observable public final class ReceiverModel<Preparation: Sendable> {
    /// What to show now.
    public private(set) var snapshot: ReceiverSnapshot<Preparation>

    /// A model that follows `session` until it ends.
    public init<Importer: AccountImporter>(following session: HandoffReceiverSession<Importer>) where Importer.Preparation == Preparation {
        snapshot = session.snapshot
        let changes = session.snapshotChanges()
        Task { [weak self] in
            for await next in changes { self?.snapshot = next }
        }
    }
}
#endif
