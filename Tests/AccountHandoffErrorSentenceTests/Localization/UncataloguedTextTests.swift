import Foundation
import Testing

/// No shipped library module builds a sentence for a person out of an English string literal:
/// every such sentence comes from the module's String Catalog. The modules and their files
/// are enumerated from `Package.swift` and `Sources/` (``ShippedModules``), every string
/// literal of every file is read (``SwiftCodeText``), and each one that reads as English
/// prose (``UncataloguedTextScanner``) is a failure, named by file and line.
@Suite struct UncataloguedTextTests {
    /// Shipped targets whose text is not for the person using an app, or is another
    /// engineer's to move; each with the reason.
    static let excludedTargets: [String: String] = [
        // The test kit's texts (a scripted gate's last answer, a recording importer's report)
        // are read by the developer whose tests run it, never by a person using the app.
        "AccountHandoffTestKit": "read by the developer testing an app",
    ]

    /// Literals that read as prose but are not for a person, by file, each with the exact
    /// text (a prefix, for a long one) and why. `description` is not let through as a whole:
    /// some types keep a person's sentence there, so each debug description is named here.
    static let notForAPerson: [(path: String, text: String, reason: String)] = [
        ("Sources/AccountHandoff/Driver/FrameChannel.swift", "nameplate ◊ by ◊", "a debug description of a channel"),
        ("Sources/AccountHandoff/Payload/SessionPayload.swift", "SessionPayload(v◊, ◊, transfer ◊, expiry ◊)", "a debug description"),
        ("Sources/AccountHandoff/Session/Receiver/HandoffReceiver.swift", "not yet known", "part of a debug description"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "accepted ◊ (relayed ◊), admitted ◊",
         "the listener's counters for developers and the bench"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "evicted ◊ before and ◊ after admission", "the same counters"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "closed for ignored frames ◊", "the same counters"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "refused at capacity ◊", "the same counters"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "waiting ◊ (peak ◊, longest wait ◊)", "the same counters"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "typed accepted ◊, refused ◊", "the same counters"),
        ("Sources/AccountHandoffTransport/Listener/ListenerStatistics.swift", "refused per address ◊, reply timed out ◊", "the same counters"),
        ("Sources/AccountHandoffReferenceStore/SQLite/AccountsTable.swift", "CREATE TABLE accounts (", "the store's SQL schema"),
        ("Sources/AccountHandoffThunderbird/Import/ImportJournal.swift", "AccountHandoff Thunderbird import journal 1",
         "the first line of the journal's manifest file, a format constant"),
        ("Sources/AccountHandoffThunderbird/Import/ImportJournal.swift", "(test step ◊)", "the path a test hook's failure names"),
        ("Sources/HandoffCLI/Manual/SendManual.swift", "(--account FILE (--password-stdin | --password-file FILE)",
         "a usage synopsis: option names, the same in every language"),
        ("Sources/HandoffCLI/Manual/SendManual.swift", "| --from-thunderbird [PROFILE] [--account EMAIL])", "the same synopsis"),
        ("Sources/HandoffCLI/Manual/SendManual.swift", #"{"accountLinkID": "#, "the JSON example of an account file: field names and values"),
        ("Sources/HandoffCLI/Session/Outcome.swift", "◊ min ◊ s", "a duration in SI unit symbols, the same in English and German"),
    ]

    static func scan() throws -> (findings: [UncataloguedText], files: Int, targets: [String]) {
        let modules = try ShippedModules()
        let targets = modules.targets.filter { excludedTargets[$0] == nil }
        var findings: [UncataloguedText] = []
        var files = 0
        for target in targets {
            for path in modules.swiftFiles(of: target) {
                files += 1
                let source = try String(contentsOf: modules.root.appendingPathComponent(path), encoding: .utf8)
                findings += UncataloguedTextScanner.findings(in: source, path: path)
            }
        }
        return (findings, files, targets)
    }

    static func isNotForAPerson(_ finding: UncataloguedText) -> Bool {
        let text = finding.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return notForAPerson.contains { finding.path == $0.path && text.hasPrefix($0.text) }
    }

    @Test func everySentenceForAPersonComesFromACatalog() throws {
        let (findings, files, targets) = try Self.scan()
        #expect(targets.contains("AccountHandoffTransport") && targets.contains("AccountHandoffThunderbird"), "\(targets)")
        #expect(files > 150, "only \(files) Swift files were read; the scan no longer finds the sources")
        let forPeople = findings.filter { !Self.isNotForAPerson($0) }
        let stale = Self.notForAPerson.filter { exception in
            !findings.contains { $0.path == exception.path && $0.text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(exception.text) }
        }
        print("Uncatalogued text: \(targets.count) modules, \(files) files; \(findings.count) prose literals: "
              + "\(findings.count - forPeople.count) not for a person, \(forPeople.count) for a person outside a catalog.")
        let listing = forPeople.map(\.description).joined(separator: "\n")
        #expect(forPeople.isEmpty, "\(forPeople.count) English literals outside the String Catalogs:\n\(listing)")
        #expect(stale.isEmpty, "exceptions that no longer match a literal: \(stale.map { "\($0.path): \($0.text)" })")
    }

    /// The scanner finds what it is for and lets through only what it names.
    @Test func theScannerFindsSentencesAndOnlyThem() {
        let source = #"""
            /// A DocC comment is not code: "This sentence is in a comment."
            enum Snippet {
                case busy = "device busy and waiting"
                var sentence: String { "The file could not be read; try again." }
                var key: String { sentenceCatalog.sentence("transport.closedByPeer", in: language) }
                func split(_ path: String) -> String { "The image \(path) is \(Self.size(path)), too large." }
                func continued() -> String { "This image holds no QR code that could be read; take a sharper photo "
                    + "in the picture." }
                func clause() -> String { "neither a PNG nor a JPEG image" }
                func interpolated(_ relay: String) -> String { "The relay \(relay) cannot be reached." }
                func developer() { precondition(true, "a session arena ran out: it is sized for its session") }
                func identifiers() -> [String] { ["profiles.ini", "Library/Thunderbird", "%@ (%lld)", "AH4 typed code", "unknown interface"] }
                // "A line comment with a sentence in it."
                /* "A block comment with a sentence in it." */
            }
            """#
        let found = UncataloguedTextScanner.findings(in: source, path: "Snippet.swift").map(\.text)
        #expect(found == [
            "The file could not be read; try again.",
            "The image ◊ is ◊, too large.",
            "This image holds no QR code that could be read; take a sharper photo ",
            "in the picture.",
            "neither a PNG nor a JPEG image",
            "The relay ◊ cannot be reached.",
        ])
        #expect(UncataloguedTextScanner.readsAsProse("Connecting directly to ◊..."))
        #expect(!UncataloguedTextScanner.readsAsProse("transport.closedByPeer"))
        #expect(!UncataloguedTextScanner.readsAsProse("◊ (◊)"))
    }
}
