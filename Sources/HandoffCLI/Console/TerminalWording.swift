import AccountHandoff

/// The library's sentences are written for apps, whose person scans the QR code with a
/// camera; at this terminal the person pastes the code's text (or types it, or names a file).
/// Every line the CLI prints passes through ``pasting(_:)``, which puts this tool's words in
/// place of the library's phrases that tell the person to scan. The library's sentences stay
/// as they are for apps; the tool's own sentences about `--scan` and `--camera`, where the
/// person does scan, use none of these phrases.
///
/// Both sides of each pair are catalog entries (`paste.NAME.library`, the library's phrase in
/// each language; `paste.NAME.terminal`, this tool's), so a translation changes both at once.
package enum TerminalWording {
    /// The pairs of keys, longest library phrase first where one contains another.
    private static let pairKeys: [(library: String, terminal: String)] = [
        ("paste.scanAgain.library", "paste.scanAgain.terminal"),
        ("paste.scanTheCode.library", "paste.scanTheCode.terminal"),
        ("paste.scanNewCode.library", "paste.scanNewCode.terminal"),
        ("paste.scanOrCopy.library", "paste.scanOrCopy.terminal"),
        ("paste.deviceThatScanned.library", "paste.deviceThatScanned.terminal"),
        ("paste.scanHandoffCode.library", "paste.scanHandoffCode.terminal"),
        ("paste.scannedAnother.library", "paste.scannedAnother.terminal"),
        ("paste.scanItAgain.library", "paste.scanItAgain.terminal"),
        ("paste.showedOrScanned.library", "paste.showedOrScanned.terminal"),
        ("paste.scanTheQR.library", "paste.scanTheQR.terminal"),
    ]

    /// Each library phrase that says "scan" (in every language: a line may hold a sentence of
    /// a module that has no catalog yet, in English) and what this tool says instead.
    package static let replacements: [(library: String, terminal: String)] = {
        var seen: Set<String> = []
        return HandoffLanguage.allCases.flatMap { language in
            pairKeys.map { (phrase($0.library, language), phrase($0.terminal, language)) }
        }.filter { seen.insert($0.library).inserted }
    }()

    /// `text` with this tool's words for the library's scanning phrases.
    package static func pasting(_ text: String) -> String {
        guard text.contains("scan") else { return text }
        return replacements.reduce(text) { $0.replacingOccurrences(of: $1.library, with: $1.terminal) }
    }

    private static func phrase(_ key: String, _ language: HandoffLanguage) -> String {
        sentenceCatalog.sentence(key, in: language)
    }
}
