// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AccountHandoff",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "AccountHandoff", targets: ["AccountHandoff"]),
        .library(name: "AccountHandoffTestSupport", targets: ["AccountHandoffTestSupport"]),
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
        .testTarget(
            name: "AccountHandoffTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]
        ),
        .testTarget(
            name: "AccountHandoffVectorTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffVectors"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
