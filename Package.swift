// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AccountHandoff",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "AccountHandoff", targets: ["AccountHandoff"]),
        .library(name: "AccountHandoffTestSupport", targets: ["AccountHandoffTestSupport"]),
        // Test support: the simulated two-device world shared by the adversarial tests and Fuzz/.
        .library(name: "AccountHandoffSimulation", targets: ["AccountHandoffSimulation"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        .target(name: "AccountHandoff", dependencies: ["CSodium"]),
        .target(name: "AccountHandoffTestSupport", dependencies: ["AccountHandoff"]),
        .target(name: "AccountHandoffSimulation", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        .testTarget(
            name: "AccountHandoffTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]
        ),
        .testTarget(
            name: "AccountHandoffAdversarialTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffSimulation"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
