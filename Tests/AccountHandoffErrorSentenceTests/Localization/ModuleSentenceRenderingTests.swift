import AccountHandoff
import AccountHandoffImport
@testable import AccountHandoffLocalAuthentication
@testable import AccountHandoffThunderbird
@testable import AccountHandoffTransport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The modules' sentences that are not errors (status lines, import outcomes) and the details
/// the PAM gate writes, rendered in every language with every placeholder filled: none falls
/// back to a key, none says English in German. The errors themselves are the samples of
/// ``TranslatedRenderingTests``.
@Suite struct ModuleSentenceRenderingTests {
    /// One rendering: its name, then the English and the German text.
    typealias Rendering = (name: String, english: String, german: String)

    static func problems(of renderings: [Rendering]) -> [String] {
        renderings.flatMap { rendering in
            var problems = TranslatedRenderingTests.problems(german: rendering.german, english: rendering.english)
            problems += SentenceRules.problems(in: rendering.english).map { "English \($0)" }
            return problems.map { "\(rendering.name): \($0): \(rendering.german)" }
        }
    }

    static let endpoint = TCPRendezvous.Endpoint(address: IPv4Address("192.168.1.20")!, port: 8080)!
    static let relay = TCPRendezvous.Relay(host: try! RelayHost("relay.example.org"), port: 4001)!

    @Test func everyConnectionStepSpeaksGerman() {
        let relayAddress = IPv4Address("203.0.113.5")!
        var progress: [ConnectionProgress] = [
            .connectingDirectly(Self.endpoint), .directFailed(Self.endpoint, .connectionRefused), .directSlow(Self.endpoint, .seconds(2)),
            .connectingThroughRelay(Self.relay, address: relayAddress), .connected(.direct(Self.endpoint)),
            .connected(.relay(Self.relay, address: relayAddress)),
        ]
        let refusals: [DirectAddressPolicy.Refusal] = [.unspecified, .broadcast, .multicast, .publicAddress]
        for refusal in refusals { progress.append(.directAddressSkipped(IPv4Address("203.0.113.9")!, refusal)) }
        for error in TransportErrorSamples.transportErrors { progress.append(.relayRetrying(Self.relay, error)) }
        let statuses: [RelayStatus] = [.waiting(at: relayAddress), .paired, .unreachable(.relayClosed), .garbledConnection, .idle]
        let choices: [ListeningAddressPolicy.Choice] = [
            ListeningAddressPolicy.Choice(address: .loopback, interfaceName: nil, reach: .thisMachine),
            ListeningAddressPolicy.Choice(address: IPv4Address("192.168.1.20")!, interfaceName: "eth0", reach: .localNetwork),
            ListeningAddressPolicy.Choice(address: IPv4Address("198.51.100.7")!, interfaceName: nil, reach: .beyondLocalNetwork),
        ]
        var renderings: [Rendering] = []
        var failures: [String] = []
        for step in progress {
            renderings.append((step.description, step.sentence(in: .english), step.sentence(in: .german)))
            if step.description != step.sentence(in: .english) { failures.append("\(step): description is not the English sentence") }
        }
        for choice in choices {
            renderings.append(("\(choice.reach)", choice.sentence(in: .english), choice.sentence(in: .german)))
            if choice.description != choice.sentence(in: .english) { failures.append("\(choice.reach): description is not the English sentence") }
        }
        failures += Self.problems(of: renderings)
        // Relay statuses are clauses after a label, so only the catalog checks apply to them.
        for status in statuses {
            let english = status.sentence(in: .english), german = status.sentence(in: .german)
            if status.description != english { failures.append("\(status): description is not the English clause") }
            for problem in TranslatedRenderingTests.problems(german: german, english: english)
            where !problem.hasPrefix("German does not start") && !problem.hasPrefix("German does not end") {
                failures.append("\(status): \(problem): \(german)")
            }
        }
        print("Rendered in German: \(progress.count) connection steps, \(statuses.count) relay statuses, \(choices.count) listening choices.")
        #expect(progress.count == 10 + TransportErrorSamples.transportErrors.count)
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }

    @Test func everyThunderbirdOutcomeSpeaksGerman() {
        let profile = ThunderbirdProfile(name: "default-release", directory: URL(fileURLWithPath: ThunderbirdErrorSamples.profile))
        let account = ImportErrorSamples.markedAccount
        var outcomes: [ThunderbirdImportOutcome] = [.cancelled, .declined(.choiceRequired)]
        for checked in [true, false] {
            for replaced in [nil, "old@example.org"] as [String?] {
                let record = ThunderbirdImportedAccount(account: account, accountKey: "account3", replacedAddress: replaced, profile: profile,
                                                        checkedWithServer: checked)
                outcomes.append(.imported(record))
            }
        }
        for failure in ImportErrorSamples.validationFailures {
            if case .validatorNotReady(let reason) = failure, !reason.isEmpty { continue }
            outcomes.append(.validationFailed(failure, account: account))
        }
        for error in ThunderbirdErrorSamples.profileErrors {
            outcomes.append(.failed(error, profile: profile))
            outcomes.append(.rollbackPending(error, profile: profile))
        }
        var renderings: [Rendering] = []
        for outcome in outcomes { renderings.append(("\(outcome)", outcome.message, outcome.message(in: .german))) }
        let failures = Self.problems(of: renderings)
        print("Rendered in German: \(outcomes.count) Thunderbird import outcomes.")
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }

    /// Every diagnosis a Thunderbird reader gives of a damaged file, inside the whole sentence
    /// of the error that shows it: one diagnosis value, rendered in each language, is wholly in
    /// that language (a diagnosis of nested text holds a nested diagnosis, said in the same one).
    @Test func everyThunderbirdDiagnosisSpeaksGerman() throws {
        let (_, catalogs) = try StringCatalogTests.catalogs()
        let catalog = try #require(catalogs.first { $0.module == "AccountHandoffThunderbird" })
        let keys = catalog.entries.keys.filter { $0.hasPrefix("diagnosis.") }.sorted()
        let placeholder = try NSRegularExpression(pattern: "%(@|lld)")
        let nesting: Set<String> = ["diagnosis.logins.notJSON", "diagnosis.compatibility.atLine"]
        let nested = ThunderbirdDiagnosis("diagnosis.json.memberTwice", .text("nextId"))
        var renderings: [Rendering] = []
        for key in keys {
            let english = try #require(catalog.entries[key]?["en"]?.value)
            let arguments: [ThunderbirdDiagnosis.Argument] = placeholder.matches(in: english, range: NSRange(english.startIndex..., in: english))
                .map { english[Range($0.range, in: english)!] == "%@" ? (nesting.contains(key) ? .diagnosis(nested) : .text("mail.server.server2")) : .number(3) }
            let error = ThunderbirdProfileError.preferencesInvalid(path: ThunderbirdErrorSamples.profile + "/prefs.js", line: 12,
                                                                   problem: ThunderbirdDiagnosis(key, arguments: arguments))
            renderings.append((key, error.sentence(in: .english), error.sentence(in: .german)))
        }
        #expect(keys.count == 66)
        #expect(ThunderbirdDiagnosis("diagnosis.logins.entryLacksText", .number(2), .text("hostname")).sentence(in: .german)
                == "Anmeldeeintrag 2 hat keinen Text hostname")
        let notJSON = ThunderbirdDiagnosis("diagnosis.logins.notJSON", .number(20), .diagnosis(nested))
        #expect(notJSON.sentence(in: .german) == "sie ist ab Byte 20 kein JSON: das Mitglied nextId kommt zweimal vor")
        #expect(notJSON.description == "it is not JSON at byte 20: the member nextId appears twice")
        let failures = Self.problems(of: renderings)
        print("Rendered in German: \(keys.count) Thunderbird diagnoses.")
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }

    /// The stores' failures whose operation is a fact rather than a call's name: the operation
    /// is said in the sentence's language.
    @Test func aStoreOperationInWordsSpeaksEachLanguage() {
        let changing = CredentialStoreError.failed(StoreFailure(.readingCredentialOfChangingAccount, domain: .posix, code: EAGAIN))
        #expect(changing.sentence(in: .english) == "The credential store could not complete the operation reading the credential "
                + "(its account changed at every read): the resource is temporarily unavailable (EAGAIN). "
                + "Close other apps or wait a moment, then try again.")
        #expect(changing.sentence(in: .german) == "Der Speicher für Zugangsdaten konnte den Vorgang Lesen der Zugangsdaten "
                + "(das Konto hat sich bei jedem Lesen geändert) nicht abschließen: die Ressource ist vorübergehend nicht verfügbar (EAGAIN). "
                + "Schließen Sie andere Apps oder warten Sie einen Moment, dann versuchen Sie es noch einmal.")
        let reply = CredentialStoreError.failed(StoreFailure(.readingKeyringReply(method: "Get(Collection.Locked)"), domain: .secretService, code: 0))
        #expect(reply.sentence(in: .english) == "The credential store could not complete the operation reading the keyring's reply to "
                + "Get(Collection.Locked): the keyring service reported a failure (GLib code 0). "
                + "Check that your keyring (GNOME Keyring, KWallet) is running and unlocked, then try again.")
        #expect(reply.sentence(in: .german) == "Der Speicher für Zugangsdaten konnte den Vorgang Lesen der Antwort des Schlüsselbunds auf "
                + "Get(Collection.Locked) nicht abschließen: der Schlüsselbunddienst hat einen Fehler gemeldet (GLib-Code 0). "
                + "Prüfen Sie, ob Ihr Schlüsselbund (GNOME Keyring, KWallet) läuft und entsperrt ist, dann versuchen Sie es noch einmal.")
        // A call keeps its name in code in every language.
        let call = AccountStoreError.failed(StoreFailure(operation: "COMMIT", domain: .sqlite, code: 5))
        #expect(call.sentence(in: .german).hasPrefix("Der Kontospeicher konnte den Vorgang COMMIT nicht abschließen: "))
    }

    #if os(Linux)
    /// The PAM gate's own sentences (the message between tries, the details of an unavailable
    /// authentication) in the configured language.
    @Test func thePAMGateSpeaksTheConfiguredLanguage() {
        var renderings: [Rendering] = []
        for tries in [1, 2] {
            renderings.append(("tryAgain(\(tries))", PAMTransaction.tryAgain(triesLeft: tries, in: .english),
                               PAMTransaction.tryAgain(triesLeft: tries, in: .german)))
        }
        // Every Linux-PAM status (0 to 31) and one it does not have, so every branch is taken.
        for status in Int32(0)...32 {
            renderings.append(("status \(status)", PAMStatus.unavailableDetail(status, service: "handoff", user: "ada", in: .english),
                               PAMStatus.unavailableDetail(status, service: "handoff", user: "ada", in: .german)))
        }
        #expect(PAMAuthenticatorConfiguration(language: .german).language == .german)
        #expect(renderings[0].german == "Dieses Passwort war nicht richtig. Versuchen Sie es noch einmal (1 Versuch übrig).")
        #expect(renderings[0].english == "That password was not right. Try again (1 try left).")
        let failures = Self.problems(of: renderings)
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n"))")
    }
    #endif
}
