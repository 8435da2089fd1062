import AccountHandoff
import AccountHandoffImport
import Foundation
import Testing

/// Every error, outcome and import outcome that has a translation, rendered through the
/// public API in every language: none falls back to a catalog key, none says English in
/// German, and each follows the sentence rules. The error values are the samples of
/// ``ErrorSentenceTests`` (enumerated against `Sources/`); the outcomes are built here from
/// every ending.
@Suite struct TranslatedRenderingTests {
    /// Every key and every English sentence of every catalog, to spot a fallback.
    static let shipped: (keys: Set<String>, englishSentences: [String]) = {
        let modules = try! ShippedModules()
        let catalogs = try! ShippedCatalog.all(in: modules)
        let keys = Set(catalogs.flatMap(\.entries.keys))
        // Whole English sentences with no placeholder, long enough not to be a German word too.
        let english = catalogs.flatMap(\.entries.values).compactMap { $0["en"]?.value }
            .filter { !$0.contains("%") && $0.count > 24 }
        return (keys, english)
    }()

    /// The shipped keys that hold a dot and the English sentences, indexed so that a rendering
    /// is compared only with those whose first bytes it contains (`String.contains` over every
    /// key and sentence for every rendering took seconds).
    static let dottedKeys = NeedleIndex(shipped.keys.filter { $0.contains(".") }.sorted())
    static let englishSentences = NeedleIndex(shipped.englishSentences)

    /// What is wrong with `german`, the rendering of something whose English is `english`.
    static func problems(german: String, english: String) -> [String] {
        var problems = SentenceRules.problems(in: german).map { "German \($0)" }
        if german == english { problems.append("German is the English sentence") }
        if dottedKeys.candidates(in: german).contains(where: { german.contains($0) && german.range(of: "\\b\($0)\\b", options: .regularExpression) != nil }) {
            problems.append("German shows a catalog key")
        }
        if let leaked = englishSentences.candidates(in: german).first(where: { german.contains($0) }) { problems.append("German contains English: \(leaked)") }
        if german.contains("%@") || german.contains("%lld") { problems.append("German shows a placeholder") }
        return problems
    }

    static let translatedSamples: [any TranslatedSentence] = ErrorSentenceTests.samples.compactMap { $0.error as? any TranslatedSentence }
        // An importer's own sentence is shown as the importer wrote it, in its language.
        .filter { sample in
            if case .storeUnavailable(let reason)? = sample as? ImportNotReady { return reason.isEmpty }
            if case .validatorNotReady(let reason)? = sample as? ValidationFailure { return reason.isEmpty }
            if case .validatorNotReady(.validatorNotReady(let reason))? = sample as? ImportError { return reason.isEmpty }
            if case .unavailable(let detail)? = sample as? LocalAuthenticationFailure { return detail.isEmpty }
            return true
        }

    @Test func everyTranslatedErrorSpeaksGerman() {
        var failures: [String] = []
        for error in Self.translatedSamples {
            let english = error.sentence(in: .english), german = error.sentence(in: .german)
            if english != error.description { failures.append("\(error): sentence(in: .english) differs from description") }
            failures += Self.problems(german: german, english: english).map { "\(type(of: error)) \(english): \($0): \(german)" }
        }
        for error in CoreErrorSamples.handoffErrors {
            for role in [HandoffRole.sender, .receiver] {
                let english = error.message(for: role), german = error.message(for: role, in: .german)
                if english != error.message(for: role, in: .english) { failures.append("\(error.identifier): message(for:) is not English") }
                failures += Self.problems(german: german, english: english).map { "\(error.identifier) (\(role)): \($0): \(german)" }
            }
        }
        print("Rendered in German: \(Self.translatedSamples.count) error samples and \(CoreErrorSamples.handoffErrors.count * 2) role sentences.")
        #expect(Self.translatedSamples.count > 250)
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }

    /// Every public error of every shipped module has its sentence in every language: each
    /// sample (the samples cover every case the scan of `Sources/` finds) is a
    /// ``AccountHandoff/TranslatedSentence``, so no error's sentence can live in an English
    /// `description` alone.
    @Test func everyPublicErrorIsTranslated() {
        let untranslated = Set(ErrorSentenceTests.samples.filter { !($0.error is any TranslatedSentence) }.map { String(reflecting: type(of: $0.error)) })
        #expect(untranslated.isEmpty, "error types whose sentence is English only: \(untranslated.sorted())")
    }

    /// Every way a session ends, on both devices.
    static var sessionEnds: [SessionEnd] {
        var ends: [SessionEnd] = [.contested, .expired]
        for party in [Party.local, .peer] {
            ends += [.cancelled(by: party), .rejected(by: party), .storeUnavailable(by: party), .notAuthenticated(by: party)]
        }
        ends += CoreErrorSamples.handoffErrors.map(SessionEnd.failed)
        return ends
    }

    @Test func everyOutcomeSpeaksGerman() {
        var outcomes: [(english: String, german: String, name: String)] = []
        for status in ReceiptStatus.allCases {
            outcomes.append((SenderOutcome.completed(status).message, SenderOutcome.completed(status).message(in: .german), "sender \(status)"))
            outcomes.append((ReceiverOutcome.completed(status).message, ReceiverOutcome.completed(status).message(in: .german), "receiver \(status)"))
        }
        for end in Self.sessionEnds {
            for outcome in [SenderOutcome.ended(end), .deliveredUnconfirmed(end)] {
                outcomes.append((outcome.message, outcome.message(in: .german), "sender \(outcome)"))
            }
            let receiver = ReceiverOutcome.ended(end)
            outcomes.append((receiver.message, receiver.message(in: .german), "receiver \(receiver)"))
        }
        let failures = outcomes.flatMap { outcome in Self.problems(german: outcome.german, english: outcome.english).map { "\(outcome.name): \($0): \(outcome.german)" } }
        print("Rendered in German: \(outcomes.count) session outcomes.")
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }

    @Test func everyImportOutcomeSpeaksGerman() throws {
        let account = ImportErrorSamples.markedAccount
        let stored = StoredAccount(id: ImportErrorSamples.localID, metadata: account, revision: 1)
        var outcomes: [ImportOutcome] = [.declined(.cancelledByPerson)]
        for checked in [true, false] {
            outcomes.append(.imported(ImportedAccountRecord(account: stored, replaced: nil, activation: .complete, checkedWithServer: checked)))
            outcomes.append(.imported(ImportedAccountRecord(account: stored, replaced: stored, activation: .complete, checkedWithServer: checked)))
        }
        outcomes += ImportErrorSamples.validationFailures.filter { failure in
            if case .validatorNotReady(let reason) = failure { return reason.isEmpty }
            return true
        }.map { ImportOutcome.validationFailed($0, account: account) }
        outcomes += ImportErrorSamples.importErrors.filter { error in
            if case .validatorNotReady(.validatorNotReady(let reason)) = error { return reason.isEmpty }
            return true
        }.map { ImportOutcome.declined(.failed($0)) }
        let failures = outcomes.flatMap { outcome in
            Self.problems(german: outcome.message(in: .german), english: outcome.message).map { "\(outcome): \($0): \(outcome.message(in: .german))" }
        }
        print("Rendered in German: \(outcomes.count) import outcomes.")
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }

    /// Text in an argument is inserted as it is: a `%` in it is not read as a placeholder, and
    /// terminal escapes or bidi controls reach the caller exactly as they would in English
    /// (the CLI neutralises them when it prints, as before).
    @Test func argumentsAreNeverReadAsFormats() {
        let hostile = "/tmp/%@%lld%1$@\u{1B}[2J\u{202E}x"
        let error = SafeOutputFileError.alreadyExists(hostile)
        #expect(error.sentence(in: .english) == "The file \(hostile) already exists; remove it or choose another name.")
        #expect(error.sentence(in: .german) == "Die Datei \(hostile) gibt es bereits; entfernen Sie sie oder wählen Sie einen anderen Namen.")
    }

    @Test func theLanguageFollowsPOSIXPrecedence() {
        #expect(HandoffLanguage(posixEnvironment: ["LANG": "de_DE.UTF-8"]) == .german)
        #expect(HandoffLanguage(posixEnvironment: ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]) == .english)
        #expect(HandoffLanguage(posixEnvironment: ["LANG": "en_US.UTF-8", "LC_MESSAGES": "de_AT", "LC_ALL": ""]) == .german)
        #expect(HandoffLanguage(posixEnvironment: ["LC_ALL": "de_CH.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]) == .german)
        #expect(HandoffLanguage(posixEnvironment: ["LANG": "C.UTF-8"]) == .english)
        #expect(HandoffLanguage(posixEnvironment: ["LANG": "fr_FR.UTF-8"]) == .english)
        #expect(HandoffLanguage(posixEnvironment: [:]) == .english)
        #expect(HandoffLanguage(Locale(identifier: "de_AT")) == .german)
        #expect(HandoffLanguage(languageTag: "de-CH") == .german)
        #expect(HandoffLanguage(languageTag: "dex") == nil)
    }
}

/// Strings to look for in many texts, indexed by their first bytes: ``candidates(in:)`` gives,
/// in their original order, every string that can occur in a text (an ASCII string occurs only
/// where the text holds its first bytes; one with other characters is always a candidate, as
/// Unicode equivalence may match it with other bytes), for `String.contains` to confirm.
struct NeedleIndex {
    let needles: [String]
    private let width: Int
    private let byFirstBytes: [UInt64: [Int]]
    private let alwaysCandidates: [Int]

    init(_ needles: [String]) {
        self.needles = needles
        let ascii = needles.indices.filter { !needles[$0].isEmpty && needles[$0].utf8.allSatisfy { $0 < 0x80 } }
        let width = min(8, ascii.map { needles[$0].utf8.count }.min() ?? 8)
        self.width = width
        var index: [UInt64: [Int]] = [:]
        for position in ascii { index[Self.key(Array(needles[position].utf8.prefix(width))), default: []].append(position) }
        byFirstBytes = index
        let indexed = Set(ascii)
        alwaysCandidates = needles.indices.filter { !indexed.contains($0) }
    }

    func candidates(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var found = Set(alwaysCandidates)
        if bytes.count >= width {
            for start in 0...(bytes.count - width) {
                if let hits = byFirstBytes[Self.key(bytes[start..<(start + width)])] { found.formUnion(hits) }
            }
        }
        return found.sorted().map { needles[$0] }
    }

    private static func key(_ bytes: some Collection<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
}
