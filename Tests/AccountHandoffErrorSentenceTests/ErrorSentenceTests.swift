import Foundation
import Testing

/// Every public error of the shipped modules reads as a sentence. The types and their cases
/// are enumerated from `Sources/` (not listed here), so a new type or case without a sample
/// fails ``everyPublicErrorCaseHasASample()``, and each sample must pass the sentence rules.
@Suite struct ErrorSentenceTests {
    static let samples: [ErrorSample] =
        CoreErrorSamples.all + ImportErrorSamples.all + TransportErrorSamples.all + OutputErrorSamples.all + DiscoveryErrorSamples.all
            + ThunderbirdErrorSamples.all + ScanErrorSamples.all

    /// The public error types of the shipped modules, read from the sources.
    static func scannedErrorTypes() throws -> [ScannedErrorType] {
        let modules = try ShippedModules()
        var scanner = ErrorDeclarationScanner()
        for target in modules.targets {
            for path in modules.swiftFiles(of: target) {
                let source = try String(contentsOf: modules.root.appendingPathComponent(path), encoding: .utf8)
                scanner.scan(source: source, module: target, path: path)
            }
        }
        return scanner.errorTypes()
    }

    @Test func theShippedModulesAreTheProductsAndTheirFiles() throws {
        let modules = try ShippedModules()
        #expect(modules.libraryProductTargets.isSubset(of: Set(modules.targets)),
                "a library product's target is marked 'Not a product' in Package.swift")
        #expect(Set(modules.targets).isSuperset(of: ["AccountHandoff", "AccountHandoffImport"]))
        for excluded in ["AccountHandoffTestSupport", "AccountHandoffVectors", "AccountHandoffSimulation", "AccountHandoffDovecot",
                         "AccountHandoffImportTestSupport", "ThrowawaySecretService", "handoff"] {
            #expect(!modules.targets.contains(excluded), "\(excluded) is test support or the CLI, not a shipped module")
        }
    }

    @Test func everyPublicErrorCaseHasASample() throws {
        let types = try Self.scannedErrorTypes()
        let expected = Set(types.flatMap(\.keys))
        let sampled = Set(Self.samples.map(\.key))
        let missing = types.flatMap { type in type.keys.filter { !sampled.contains($0) }.map { "\($0) (\(type.location))" } }
        #expect(missing.isEmpty, "public error cases without a sample in Tests/AccountHandoffErrorSentenceTests/Samples: \(missing)")
        // A sample of a type the scan did not find means the scanner missed a declaration form.
        let unscanned = sampled.subtracting(expected).sorted()
        #expect(unscanned.isEmpty, "samples of cases the scan of Sources/ did not find: \(unscanned)")
        let caseCount = types.reduce(0) { $0 + max($1.cases.count, 1) }
        print("Error sentences: \(types.count) public error types, \(caseCount) cases or struct types, "
              + "\(Self.samples.count) samples, \(Self.samples.reduce(0) { $0 + 1 + $1.variants.count }) sentences checked.")
        print("Types: " + types.map { "\($0.module).\($0.name)(\($0.hasCases ? "\($0.cases.count)" : "struct"))" }.joined(separator: ", "))
    }

    @Test func everySampleReadsAsAWholeSentence() {
        var failures: [String] = []
        for sample in Self.samples {
            let sentence = (sample.error as? any LocalizedError)?.errorDescription ?? ""
            let problems = SentenceRules.interfaceProblems(of: sample.error) + SentenceRules.problems(in: sentence)
            if !problems.isEmpty { failures.append("\(sample.key): \(problems.joined(separator: ", ")): \"\(sentence)\"") }
            for variant in sample.variants {
                let variantProblems = SentenceRules.problems(in: variant)
                if !variantProblems.isEmpty {
                    failures.append("\(sample.key) (variant): \(variantProblems.joined(separator: ", ")): \"\(variant)\"")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) sentences break the rules:\n\(failures.joined(separator: "\n"))")
    }

    /// The rules catch what they are for, so a passing run means something.
    @Test func theRulesRejectTheSentencesPeopleSaw() {
        #expect(SentenceRules.problems(in: "mkdirat(/home/ada/.handoff/credentials) failed (posix code 13)")
            == ["does not start with a capital letter", "does not end with '.'", "says posix code"])
        #expect(SentenceRules.problems(in: "The addresses of this machine could not be listed (errno 12); use 127.0.0.1 or try again.")
            == ["says errno"])
        #expect(SentenceRules.problems(in: "The operation could not be completed. (AccountHandoffImport.StoreFailure error 1.)")
            == ["does not end with '.'", "is Foundation's generic text", "has an 'error N)' number", "shows a Swift value dump"])
        #expect(SentenceRules.problems(in: "The QR encoder failed (mmap error 12).") == ["has an 'error N)' number"])
        #expect(SentenceRules.problems(in: "The choice Optional(keepBoth) is not allowed.") == ["shows an Optional"])
        #expect(SentenceRules.problems(in: "Hello \(secretMarker).") == ["echoes the secret marker"])
        #expect(SentenceRules.problems(in: "Writing code.svg failed: no space left on the device (ENOSPC); free some space.").isEmpty)
    }

    /// A foreign error that is not a `LocalizedErrorSentence` fails the interface rules.
    @Test func theInterfaceRulesRejectAPlainError() {
        struct PlainError: Error {}
        #expect(SentenceRules.interfaceProblems(of: PlainError()) == ["is not a LocalizedErrorSentence", "has no errorDescription"])
    }
}
