// swift-tools-version:6.0
// libFuzzer targets for AccountHandoff. A separate package, so the sanitizer flags it is
// built with never reach the library's users. Build and run everything with Scripts/fuzz.sh.
import Foundation
import PackageDescription

// SwiftPM names a local package after its directory, so ask for the root package's product
// by whatever the checkout directory is called.
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let fuzzTargets = ["FuzzQRPayload", "FuzzFrame", "FuzzSender", "FuzzReceiver", "FuzzSession"]

let package = Package(
    name: "AccountHandoffFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver, so each target's main can run the fuzzer itself.
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: [
            "CLibFuzzer",
            .product(name: "AccountHandoffSimulation", package: rootPackage),
        ]),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzSupport",
            .product(name: "AccountHandoffSimulation", package: rootPackage),
        ])
    },
    swiftLanguageModes: [.v6]
)
