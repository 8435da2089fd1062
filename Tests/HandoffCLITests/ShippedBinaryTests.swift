#if os(Linux)
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// What ships holds nothing of the lab: `handoff` depends on no target under `Harness/` (read
/// from the package's own description), and the built binary defines neither the malloc
/// family (the bench's allocation counter) nor libsodium's functions (the bench's call
/// counter), which a program that links them takes over for the whole process.
@Suite(.startsProcesses) struct ShippedBinaryTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func handoffDependsOnNoHarnessTarget() throws {
        // A scratch path of its own, so that SwiftPM does not wait for the lock of the build that runs these tests.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let described = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                             ["swift", "package", "--package-path", Self.repository.path,
                                              "--scratch-path", scratch.path, "describe", "--type", "json"])
        #expect(described.status == 0, "\(String(decoding: described.stderr, as: UTF8.self))")
        let package = try #require(try JSONSerialization.jsonObject(with: Data(described.stdout)) as? [String: Any])
        let targets = try #require(package["targets"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: targets.compactMap { target in
            (target["name"] as? String).map { ($0, target) }
        })
        var closure: Set<String> = []
        var pending = ["handoff"]
        while let name = pending.popLast() {
            guard closure.insert(name).inserted, let target = byName[name] else { continue }
            pending += target["target_dependencies"] as? [String] ?? []
        }
        let paths = closure.compactMap { byName[$0]?["path"] as? String }
        #expect(closure.contains("AccountHandoff") && closure.contains("AccountHandoffTransport"), "\(closure.sorted())")
        #expect(paths.count == closure.count)
        #expect(paths.filter { $0.hasPrefix("Harness/") }.isEmpty, "handoff depends on \(paths.filter { $0.hasPrefix("Harness/") })")
        // The developer tool is where the lab went.
        #expect(byName["handoff-dev"]?["path"] as? String == "Harness/handoff-dev")
    }

    @Test func theBuiltHandoffDefinesNoAllocatorAndNoLibsodiumFunction() throws {
        let binary = try HandoffProcess.binary(named: "handoff")
        let symbols = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["nm", "-D", "--defined-only", binary.path])
        #expect(symbols.status == 0)
        let defined = Set(String(decoding: symbols.stdout, as: UTF8.self).split(separator: "\n").compactMap { $0.split(separator: " ").last })
        let allocator: Set<Substring> = ["malloc", "calloc", "realloc", "free", "memalign", "aligned_alloc", "posix_memalign", "valloc",
                                         "pvalloc", "malloc_usable_size"]
        #expect(defined.intersection(allocator).isEmpty, "handoff defines \(defined.intersection(allocator).sorted())")
        let sodium = defined.filter { $0.hasPrefix("crypto_") || $0.hasPrefix("randombytes") || $0.hasPrefix("sodium_") }
        #expect(sodium.isEmpty, "handoff defines \(sodium.sorted())")
        // The developer tool does define them: the check would see them if they were there.
        let developer = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                             ["nm", "-D", "--defined-only", try HandoffProcess.binary(named: "handoff-dev").path])
        let developerSymbols = String(decoding: developer.stdout, as: UTF8.self)
        #expect(developerSymbols.contains(" T malloc\n") && developerSymbols.contains(" T crypto_scalarmult\n"))
    }
}
#endif
