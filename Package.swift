// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AccountHandoff",
    platforms: [.macOS(.v13), .iOS(.v16)],
    // What an app links: the library, QR rendering, the local transport, and the receiver's
    // import layer (the transaction, IMAP validation, the reference store for Linux); and the
    // CLI. Test support (seeded randomness, the simulated world, vector generation, the
    // throwaway Dovecot) is not a product, and its hooks use `package` access, so no app can
    // reach them. Fuzz/ builds the simulated world from the same sources (symbolic links).
    products: [
        .library(name: "AccountHandoff", targets: ["AccountHandoff"]),
        .library(name: "AccountHandoffQR", targets: ["AccountHandoffQR"]),
        .library(name: "AccountHandoffTransport", targets: ["AccountHandoffTransport"]),
        // Receiver-side import as a transaction: coordinator, store protocols, Keychain item policy.
        .library(name: "AccountHandoffImport", targets: ["AccountHandoffImport"]),
        // Validates an account by logging in to its IMAP server over TLS (libcurl).
        .library(name: "AccountHandoffIMAPValidation", targets: ["AccountHandoffIMAPValidation"]),
        // The reference account store for Linux: SQLite metadata plus 0600 credential files.
        .library(name: "AccountHandoffReferenceStore", targets: ["AccountHandoffReferenceStore"]),
        .executable(name: "handoff", targets: ["handoff"]),
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
        // Deflate for the PNG renderer's image data.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "AccountHandoff", dependencies: ["CSodium"]),
        .target(name: "AccountHandoffImport", dependencies: ["AccountHandoff"]),
        .target(name: "AccountHandoffIMAPValidation", dependencies: ["AccountHandoff", "AccountHandoffImport", "CCurl"]),
        .target(name: "AccountHandoffReferenceStore", dependencies: ["AccountHandoff", "AccountHandoffImport", "CSQLite"]),
        // Not a product: a throwaway Dovecot IMAP server for the tests and the demo.
        .target(name: "AccountHandoffDovecot", dependencies: ["AccountHandoff", "CSodium", "CPOSIXSpawn"]),
        // Not a product: fault-injecting store wrappers and the transaction's kill points.
        .target(
            name: "AccountHandoffImportTestSupport",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffReferenceStore", "AccountHandoffIMAPValidation"]
        ),
        // Not a product: runs one import and stops at a named step so a test can SIGKILL it there.
        .executableTarget(
            name: "import-crash-probe",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffReferenceStore",
                           "AccountHandoffIMAPValidation", "AccountHandoffImportTestSupport"]
        ),
        // Not a product: seeded randomness and forged frames for tests, vectors and the bench.
        .target(name: "AccountHandoffTestSupport", dependencies: ["AccountHandoff"]),
        .target(name: "AccountHandoffVectors", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        .target(name: "AccountHandoffQR", dependencies: ["AccountHandoff", "CQREncode", "CZlib"]),
        .target(name: "AccountHandoffTransport", dependencies: ["AccountHandoff", "CPOSIXAccept"]),
        // accept4 for the transport: accepted sockets close-on-exec from birth (Linux).
        .target(name: "CPOSIXAccept"),
        // closefrom for the throwaway Dovecot's spawn: it inherits only its standard streams (glibc).
        .target(name: "CPOSIXSpawn"),
        // Output files (QR images, the receiver's store): atomic, mode 0600, never through links.
        .target(name: "AccountHandoffFiles"),
        .executableTarget(
            name: "handoff",
            dependencies: ["AccountHandoff", "AccountHandoffFiles", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffVectors",
                           "AccountHandoffImport", "AccountHandoffReferenceStore", "AccountHandoffIMAPValidation",
                           "AccountHandoffDovecot"]
        ),
        // Not a product: the simulated two-device world of the adversarial tests and Fuzz/.
        .target(name: "AccountHandoffSimulation", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"]),
        .testTarget(
            name: "AccountHandoffTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport"],
            // Third-party vectors with their licences, read in place by path (ThirdPartyVectors.swift).
            exclude: ["ThirdPartyVectors"]
        ),
        .testTarget(
            name: "AccountHandoffVectorTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffVectors"]
        ),
        .testTarget(
            name: "AccountHandoffQRTests",
            dependencies: ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTestSupport", "CZlib"]
        ),
        .testTarget(
            name: "AccountHandoffTransportTests",
            dependencies: ["AccountHandoff", "AccountHandoffTransport", "AccountHandoffTestSupport"]
        ),
        .testTarget(name: "AccountHandoffFilesTests", dependencies: ["AccountHandoffFiles"]),
        .testTarget(
            name: "HandoffCLITests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffTransport", "AccountHandoffReferenceStore",
                           "AccountHandoffDovecot", "handoff"]
        ),
        .testTarget(
            name: "AccountHandoffImportTests",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffReferenceStore",
                           "AccountHandoffIMAPValidation", "AccountHandoffDovecot", "AccountHandoffImportTestSupport", "AccountHandoffTestSupport",
                           "import-crash-probe", "CSQLite"]
        ),
        .testTarget(
            name: "AccountHandoffAdversarialTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffSimulation"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
