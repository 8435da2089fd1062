// swift-tools-version:6.0
// libFuzzer targets for AccountHandoff. A separate package, so the sanitizer flags it is
// built with never reach the library's users. Build and run everything with Scripts/fuzz.sh.
//
// The library and the simulated world are not products an app could link, so this package
// builds them itself: Sources/CSodium, AccountHandoff, AccountHandoffTestSupport and
// AccountHandoffSimulation are symbolic links to the root package's folders of those names.
import PackageDescription

let fuzzTargets = ["FuzzQRPayload", "FuzzFrame", "FuzzSender", "FuzzReceiver", "FuzzSession"]

let package = Package(
    name: "AccountHandoffFuzz",
    targets: [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .target(name: "AccountHandoff", dependencies: ["CSodium"]),
        .target(name: "AccountHandoffTestSupport", dependencies: ["AccountHandoff"]),
        .target(name: "AccountHandoffSimulation", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        // Declares libFuzzer's LLVMFuzzerRunDriver, so each target's main can run the fuzzer itself.
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", "AccountHandoffSimulation"]),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport", "AccountHandoffSimulation"])
    },
    swiftLanguageModes: [.v6]
)
