import AccountHandoff
import Foundation

/// This module's sentences (`Resources/Localizable.xcstrings`), read once per process: every
/// line the `handoff` command prints for a person, in the language of ``HandoffLanguage/cli``.
let sentenceCatalog = SentenceCatalog.bundled(target: "HandoffCLI") { .module }
