import Foundation
import Testing

/// The library's sentences the CLI prints follow POSIX's message locale: `LC_ALL`, then
/// `LC_MESSAGES`, then `LANG`, and so do the CLI's own (its String Catalog).
@Suite(.startsProcesses) struct CLILanguageTests {
    /// The locale variables a test sets, all of them, so the runner's own cannot decide.
    static func locale(all: String = "", messages: String = "", lang: String = "") -> [String: String] {
        ["LC_ALL": all, "LC_MESSAGES": messages, "LANG": lang]
    }

    static let alreadyUsedInGerman = "Die Übertragung ist fehlgeschlagen. Dieser Code wurde auf diesem Gerät schon verwendet; fordern Sie am sendenden Gerät einen neuen Code an. Es wurde nichts importiert.\n"
    static let alreadyUsedInEnglish = "The transfer failed. This code was already used on this device; ask the sending device for a new code. Nothing was imported.\n"

    /// A code already used with this store, given to `receive` again: the whole refusal is the
    /// library's sentence, in German under `LANG=de_DE.UTF-8`, in English when `LC_MESSAGES`
    /// or `LC_ALL` says otherwise, and in German when `LC_ALL` says German over an English `LANG`.
    @Test func aCodeUsedTwiceIsRefusedInTheLanguageOfTheMessageLocale() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        let cases: [([String: String], String)] = [
            (Self.locale(lang: "de_DE.UTF-8"), Self.alreadyUsedInGerman),
            (Self.locale(messages: "C", lang: "de_DE.UTF-8"), Self.alreadyUsedInEnglish),
            (Self.locale(all: "en_US.UTF-8", messages: "de_DE.UTF-8", lang: "de_DE.UTF-8"), Self.alreadyUsedInEnglish),
            (Self.locale(all: "de_AT.UTF-8", lang: "C.UTF-8"), Self.alreadyUsedInGerman),
        ]
        for (environment, expected) in cases {
            let again = try await HandoffProcess.run(scratch.receiveArguments(), stdin: pair.code + "\n", environment: environment)
            #expect(again.status == 70)
            #expect(again.stderr == expected, "\(environment)")
        }
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
    }

    /// A code from a newer version at `receive`: the CLI's own lead and the library's sentence,
    /// both in German.
    @Test func aNewerCodeAtReceiveIsExplainedInGerman() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: "AH:009\n", environment: Self.locale(lang: "de_DE.UTF-8"))
        #expect(result.status == 65)
        #expect(result.stderr == "Der Übertragungscode ist ungültig. Dieser Code oder diese Nachricht verwendet die Protokollversion 9, die neuer ist als die dieser App (4), daher muss nur dieses Gerät aktualisiert werden; aktualisieren Sie die App hier, dann fordern Sie am sendenden Gerät einen neuen Code an.\n")
    }
}
