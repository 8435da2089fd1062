import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// What an app can link and call: only the app-facing libraries are products, and
/// the test hooks (seeded randomness, forged frames, raw primitives, plaintext reads of
/// guarded memory, the bench's reference session) are `package` symbols that an app's
/// compiler refuses. Played as an app's developer would: by compiling an app against the built modules.
@Suite(.startsProcesses) struct ShippedAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func onlyTheAppFacingLibrariesAndTheCLIAreProducts() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Its own scratch path, so it never waits for the lock of the build that runs this test.
        let run = try Tool.run("swift", ["package", "--package-path", Self.root.path, "--scratch-path", scratch.path, "dump-package"])
        try #require(run.status == 0, "\(run.output)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let products = try #require(manifest["products"] as? [[String: Any]])
        let names = Set(products.compactMap { $0["name"] as? String })
        #expect(names == ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffImport",
                          "AccountHandoffIMAPValidation", "AccountHandoffReferenceStore", "AccountHandoffLocalAuthentication",
                          "AccountHandoffSecretService", "AccountHandoffDiscovery",
                          "AccountHandoffThunderbird", "AccountHandoffScan", "handoff", "AccountHandoffTestKit"])
        // The test kit is a product of its own: no other product's targets reach it.
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            let listed = target["dependencies"] as? [[String: Any]] ?? []
            dependencies[name] = listed.compactMap { entry in
                (entry["byName"] as? [Any] ?? entry["target"] as? [Any])?.first as? String
            }
        }
        for product in products where product["name"] as? String != "AccountHandoffTestKit" {
            var reached = Set<String>()
            var pending = product["targets"] as? [String] ?? []
            while let next = pending.popLast() {
                guard reached.insert(next).inserted else { continue }
                pending += dependencies[next] ?? []
            }
            #expect(!reached.contains("AccountHandoffTestKit"), "\(product["name"] ?? "?") links the test kit")
            #expect(!reached.isEmpty)
        }
    }

    /// Each line reaches for one hook; compiled as an app (without this package's name) every
    /// line is refused, and compiled as part of the package the same file is fine, so the only
    /// thing in the app's way is the access level.
    @Test func anAppCannotReachTheTestHooks() throws {
        let hooks = [
            "let random = InsecureDeterministicRandom(seed: 1)",
            "let digest = VectorPrimitives.sha256([[1]])",
            "let reference = ReferenceSession.typical",
            "func forge(_ sender: HandoffSender) -> [UInt8]? { sender.sealForgedFrame(.credential, plaintext: [], linkID: nil) }",
            "func read(_ secret: SecretBytes) -> [UInt8] { secret.revealedBytes() }",
            "func peek(_ sender: HandoffSender) -> [SessionSecret] { sender.keptSecrets }",
            "func memory(_ sender: HandoffSender) -> SessionArena { sender.memory }",
            "func copy(_ sender: HandoffSender) throws -> HandoffSender { try sender.copyAwaitingHello() }",
            "func copy(_ receiver: HandoffReceiver) throws -> HandoffReceiver { try receiver.copyAwaitingReveal() }",
            "func anyone(_ c: any PAMConversation) -> PAMAuthenticator { PAMAuthenticator(configuration: .init(), conversation: c, userID: 0) }",
            "func kind(_ error: HandoffError) -> Bool { if case .expired = error.kind { true } else { false } }",
        ]
        let imports = ["import AccountHandoff", "import AccountHandoffBench", "import AccountHandoffTestSupport", "import AccountHandoffLocalAuthentication"]
        let source = (imports + hooks).joined(separator: "\n") + "\n"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("App.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let common = try Self.typecheckArguments(file)

        let asApp = try Tool.run("swiftc", common)
        #expect(asApp.status != 0)
        let refusedLines = Set(asApp.output.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix(file.path + ":"), line.contains(": error: ") else { return nil }
            return Int(line.dropFirst(file.path.count + 1).prefix { $0 != ":" })
        })
        #expect(refusedLines == Set((imports.count + 1)...(imports.count + hooks.count)), "every hook line is refused: \(asApp.output)")

        let asPackage = try Tool.run("swiftc", ["-package-name", Self.packageName()] + common)
        #expect(asPackage.status == 0, "the hooks exist for the package's own targets: \(asPackage.output)")
    }

    /// `HandoffError` is a struct with a code, so new errors are additive: an app creates,
    /// catches, compares and switches over errors (with a `default`) through its static
    /// members, ``HandoffError/code`` and the payload accessors. Compiled as an app, without
    /// this package's name: every line here must keep compiling.
    @Test func anAppHandlesHandoffErrorsThroughTheAdditiveSurface() throws {
        let source = #"""
            import AccountHandoff
            import Foundation

            func thrown() throws(HandoffError) { throw .malformed(.digits) }
            func untyped() throws { throw HandoffError.invalidEvent(.cancel, in: .sender(.awaitingHello)) }

            func handle(_ run: () throws -> Void) -> String {
                do {
                    try run()
                    return "ok"
                } catch HandoffError.expired {
                    return "expired"
                } catch HandoffError.malformed(.typedCode) {
                    return "typed code"
                } catch let error as HandoffError where error == .malformed(.digits) {
                    return "digits"
                } catch let error as HandoffError {
                    switch error.code {
                    case .expired, .expiryTooFar: return "time"
                    case .malformed: return "malformed \(error.field?.rawValue ?? "?")"
                    case .secureMemoryUnavailable: return "memory \(error.secureMemoryFailure.map { "\($0)" } ?? "?")"
                    case .registryUnavailable: return "registry \(error.registryFailure.map { "\($0)" } ?? "?")"
                    default: return error.identifier + " " + error.code.description
                    }
                } catch {
                    return error.localizedDescription
                }
            }

            func isRetryable(_ error: HandoffError) -> Bool {
                if error == .malformed(.digits) || error == HandoffError.unsupportedVersion(9) { return false }
                switch error {
                case .expired, .transportLost, .senderUnreachable, .secureMemoryUnavailable(.lockLimitReached): return true
                case .invalidEvent(.cancel, in: .receiver(.awaitingOffer)): return false
                default: return false
                }
            }

            let codes: Set<HandoffError.Code> = [.expired, .malformed, .registryUnavailable]
            let sentence: String = HandoffError.expired.message(for: .receiver) + HandoffError.expired.description
                + (HandoffError.expired.errorDescription ?? "") + handle(thrown) + handle(untyped) + "\(codes.count)"
                + "\(isRetryable(.registryUnavailable(.corrupt)))"
            """#
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("App.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let asApp = try Tool.run("swiftc", try Self.typecheckArguments(file))
        #expect(asApp.status == 0, "an app's use of HandoffError's public surface: \(asApp.output)")
    }

    /// The README's misuse table, as an app's compiler sees it: a password handed over as a
    /// `String` where a `CredentialReader` is expected is a compile error, and a registry in
    /// memory must be named as such (no initialiser without storage).
    @Test func theMisuseTableHoldsForAnApp() throws {
        let refused = [
            "func password() -> CredentialReader { { _ in \"s3cret\" } }",
            "func senderRegistry() throws -> SenderRegistry { try SenderRegistry() }",
            "func receiverRegistry() throws -> ReceiverRegistry { try ReceiverRegistry() }",
        ]
        let accepted = "func accepted() -> (CredentialReader, SenderRegistry, ReceiverRegistry) { ({ _ in try SecretBytes(utf8: \"s3cret\") }, .inMemory(), .inMemory()) }"
        let source = (["import AccountHandoff"] + refused + [accepted]).joined(separator: "\n") + "\n"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("App.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let asApp = try Tool.run("swiftc", try Self.typecheckArguments(file))
        let refusedLines = Set(asApp.output.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix(file.path + ":"), line.contains(": error: ") else { return nil }
            return Int(line.dropFirst(file.path.count + 1).prefix { $0 != ":" })
        })
        #expect(refusedLines == [2, 3, 4], "\(asApp.output)")
    }

    /// `swiftc` arguments that typecheck `file` against the built modules, as an app would.
    static func typecheckArguments(_ file: URL) throws -> [String] {
        let modules = try modulesDirectory()
        return ["-typecheck", "-swift-version", "6", "-I", modules.path,
                "-Xcc", "-fmodule-map-file=" + root.appendingPathComponent("Sources/CSodium/module.modulemap").path,
                "-Xcc", "-fmodule-map-file=" + root.appendingPathComponent("Sources/CPAM/module.modulemap").path,
                // The bench's libsodium call counter, a C target whose module map SwiftPM generates.
                "-Xcc", "-fmodule-map-file=" + modules.deletingLastPathComponent().appendingPathComponent("CSodiumCounter.build/module.modulemap").path,
                file.path]
    }

    /// The `-package-name` SwiftPM passed when it built this package: read from its build
    /// description when there is one, else derived as SwiftPM derives it (the checkout
    /// folder's name, lowercased, every character that cannot be in an identifier an
    /// underscore, an underscore before a leading digit).
    static func packageName() -> String {
        for configuration in ["debug", "release"] {
            let description = root.appendingPathComponent(".build/\(configuration).yaml")
            if let text = try? String(contentsOf: description, encoding: .utf8),
               let range = text.range(of: #""-package-name",""#) {
                let name = text[range.upperBound...].prefix { $0 != "\"" }
                if !name.isEmpty { return String(name) }
            }
        }
        var name = String(root.lastPathComponent.lowercased().map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// The folder of built `.swiftmodule`s next to the test bundle.
    static func modulesDirectory() throws -> URL {
        for directory in BuiltExecutable.candidateDirectories {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("AccountHandoff.swiftmodule").path) { return modules }
        }
        throw MissingModules()
    }

    struct MissingModules: Error, CustomStringConvertible {
        var description: String { "The built modules were not found next to the tests; build with 'swift build --build-tests'." }
    }
}

/// Runs a toolchain command and collects its output and standard error together.
private enum Tool {
    struct Result { let status: Int32; let output: String }

    static func run(_ name: String, _ arguments: [String]) throws -> Result {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments)
        return Result(status: result.status, output: String(decoding: result.stdout + result.stderr, as: UTF8.self))
    }
}
