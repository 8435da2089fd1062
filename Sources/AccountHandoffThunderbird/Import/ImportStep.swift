/// The steps of an import into a profile, in order, at which a test can stop or fail it
/// (``ImportStepHook``). Not for apps: the hook is package access.
package enum ImportStep: String, CaseIterable, Sendable {
    /// The journal folder exists; nothing is saved yet.
    case journalFolderCreated
    /// The files the import may change are copied into the journal; no manifest yet.
    case journalCopiesSaved
    /// The manifest is written: from here a rollback restores the copies.
    case journalWritten
    /// NSS made the profile's SDR key (only when the profile had none).
    case keyDatabaseChanged
    /// `logins.json` holds the new login.
    case loginsWritten
    /// `prefs.js` holds the new account.
    case preferencesWritten
    /// The manifest is removed: the import is committed.
    case journalCommitted
    /// The journal's copies are removed.
    case journalRemoved

    /// Whether a stop at this step leaves the import committed.
    package var isCommitted: Bool {
        switch self {
        case .journalFolderCreated, .journalCopiesSaved, .journalWritten, .keyDatabaseChanged, .loginsWritten, .preferencesWritten: false
        case .journalCommitted, .journalRemoved: true
        }
    }
}

/// Called at each ``ImportStep``: `nil` goes on, an `errno` value makes the step fail with it.
/// A test's hook may also stop the process there.
package typealias ImportStepHook = @Sendable (ImportStep) -> Int32?
