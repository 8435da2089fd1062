// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AccountHandoff",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "AccountHandoff", targets: ["AccountHandoff"]),
        .library(name: "AccountHandoffTestSupport", targets: ["AccountHandoffTestSupport"]),
        .library(name: "AccountHandoffQR", targets: ["AccountHandoffQR"]),
        .library(name: "AccountHandoffTransport", targets: ["AccountHandoffTransport"]),
        .library(name: "AccountHandoffFiles", targets: ["AccountHandoffFiles"]),
        .executable(name: "handoff", targets: ["handoff"]),
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
        .target(name: "AccountHandoffVectors", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        .target(name: "AccountHandoffQR", dependencies: ["AccountHandoff", "CQREncode"]),
        .target(name: "AccountHandoffTransport", dependencies: ["AccountHandoff"]),
        // Output files (QR images, the receiver's store): atomic, mode 0600, never through links.
        .target(name: "AccountHandoffFiles"),
        .executableTarget(
            name: "handoff",
            dependencies: ["AccountHandoff", "AccountHandoffFiles", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffVectors"]
        ),
        .target(name: "AccountHandoffSimulation", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        .testTarget(
            name: "AccountHandoffTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]
        ),
        .testTarget(
            name: "AccountHandoffVectorTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffVectors"]
        ),
        .testTarget(
            name: "AccountHandoffQRTests",
            dependencies: ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTestSupport"]
        ),
        .testTarget(
            name: "AccountHandoffTransportTests",
            dependencies: ["AccountHandoff", "AccountHandoffTransport", "AccountHandoffTestSupport"]
        ),
        .testTarget(name: "AccountHandoffFilesTests", dependencies: ["AccountHandoffFiles"]),
        .testTarget(
            name: "HandoffCLITests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffTransport", "handoff"]
        ),
        .testTarget(
            name: "AccountHandoffAdversarialTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffSimulation"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
