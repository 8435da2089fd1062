// swift-tools-version:6.0
// libFuzzer targets for AccountHandoff. A separate package, so the sanitizer flags it is
// built with never reach the library's users. Build and run everything with Scripts/fuzz.sh.
//
// The library and the simulated world are not products an app could link, so this package
// builds them itself: Sources/CSodium, AccountHandoffTestSupport and AccountHandoffSimulation
// are symbolic links to the root package's folders of those names, and Sources/AccountHandoff
// holds a link to the library's folder (Library) next to the fuzz build's own shortcuts
// (FuzzShortcuts: memoised X25519 and session keys, selected by Scripts/fuzz.sh's flags), which
// are no part of the library an app links.
import PackageDescription

let fuzzTargets = ["FuzzQRPayload", "FuzzFrame", "FuzzSender", "FuzzReceiver", "FuzzSession"]
// Structure-aware targets: typed event scripts with their own mutator (Sources/EventFuzzing).
let eventTargets = ["FuzzEvents", "FuzzDrivers"]

// Scripts/fuzz.sh builds everything with AddressSanitizer; only the code under test gets
// libFuzzer's coverage and comparison tracing. The harness (the simulated world, its leak
// scanner, the seeded randomness) would only add edges to collect after every input and
// comparisons to trace, and steer the fuzzer towards the harness's own branches.
// (The instrumentation that -sanitize=fuzzer adds, spelled out: a second -sanitize would
// replace the script's -sanitize=address instead of adding to it.)
let coverage: [SwiftSetting] = [.unsafeFlags(["-sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table"])]

let package = Package(
    name: "AccountHandoffFuzz",
    defaultLocalization: "en",
    targets: [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .target(name: "AccountHandoff", dependencies: ["CSodium"], exclude: ["Library/Errors/HandoffError.def"],
                resources: [.copy("Library/Resources/Localizable.xcstrings")],
                swiftSettings: coverage),
        .target(name: "AccountHandoffTestKit", dependencies: ["AccountHandoff"]),
        .target(name: "AccountHandoffTestSupport", dependencies: ["AccountHandoff", "AccountHandoffTestKit"]),
        .target(name: "AccountHandoffSimulation", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        // Declares libFuzzer's LLVMFuzzerRunDriver, so each target's main can run the fuzzer itself.
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", "AccountHandoffSimulation"]),
        // Runs Swift concurrency's jobs on the fuzzer's thread, in order (the driver world).
        .target(name: "CSerialJobs"),
        .target(name: "EventFuzzing", dependencies: ["CLibFuzzer", "CSerialJobs", "AccountHandoff", "AccountHandoffTestSupport",
                                                     "AccountHandoffSimulation"]),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport", "AccountHandoffSimulation"],
                          linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])])
    } + eventTargets.map { name in
        .executableTarget(name: name, dependencies: ["EventFuzzing"], linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])])
    },
    swiftLanguageModes: [.v6]
)
