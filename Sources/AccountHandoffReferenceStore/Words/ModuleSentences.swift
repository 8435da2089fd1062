import AccountHandoff
import Foundation

/// This module's sentences (`Resources/Localizable.xcstrings`), read once per process.
let sentenceCatalog = SentenceCatalog.bundled(target: "AccountHandoffReferenceStore") { .module }
