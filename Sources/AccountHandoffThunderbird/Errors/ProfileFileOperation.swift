import AccountHandoff

/// What was being done to a profile file when it failed: the `operation` of
/// ``ThunderbirdProfileError/fileOperationFailed(path:operation:code:)``, whose raw value is the
/// English past participle that error carries. Its sentence puts it in words from the catalog.
enum ProfileFileOperation: String, CaseIterable {
    case created
    case examined
    case flushedToDisk = "flushed to disk"
    case locked
    case opened
    case read
    case removed
    case restored
    case written

    /// The operation as the end of "could not be ...".
    func words(in language: HandoffLanguage) -> String {
        switch self {
        case .created: sentenceCatalog.sentence("operation.created", in: language)
        case .examined: sentenceCatalog.sentence("operation.examined", in: language)
        case .flushedToDisk: sentenceCatalog.sentence("operation.flushedToDisk", in: language)
        case .locked: sentenceCatalog.sentence("operation.locked", in: language)
        case .opened: sentenceCatalog.sentence("operation.opened", in: language)
        case .read: sentenceCatalog.sentence("operation.read", in: language)
        case .removed: sentenceCatalog.sentence("operation.removed", in: language)
        case .restored: sentenceCatalog.sentence("operation.restored", in: language)
        case .written: sentenceCatalog.sentence("operation.written", in: language)
        }
    }
}
