// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AccountHandoff",
    // Sentences come from each module's Resources/Localizable.xcstrings (a String Catalog),
    // copied as it is (Foundation on Linux does not compile catalogs) and read by SentenceCatalog.
    defaultLocalization: "en",
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
        // Local authentication before a credential is sent or received: PAM (Linux), LAContext (Apple).
        .library(name: "AccountHandoffLocalAuthentication", targets: ["AccountHandoffLocalAuthentication"]),
        // Credentials in the Linux desktop's keyring (Secret Service: GNOME Keyring, KWallet) via libsecret.
        .library(name: "AccountHandoffSecretService", targets: ["AccountHandoffSecretService"]),
        .executable(name: "handoff", targets: ["handoff"]),
        // Thunderbird profiles: reads an IMAP account and its NSS-encrypted login, and imports
        // one as a journaled transaction (an AccountImporter).
        .library(name: "AccountHandoffThunderbird", targets: ["AccountHandoffThunderbird"]),
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
        // Linux-PAM for the local-authentication gate; Debian ships pam.pc, Homebrew has no PAM
        // (Apple platforms use LocalAuthentication), so no brew provider.
        .systemLibrary(
            name: "CPAM",
            pkgConfig: "pam",
            providers: [.apt(["libpam0g-dev"])]
        ),
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"]), .brew(["libsecret"])]
        ),
        // Mozilla NSS for Thunderbird's key4.db: the login encryption (SDR) of a profile.
        .systemLibrary(
            name: "CNSS",
            pkgConfig: "nss",
            providers: [.apt(["libnss3-dev"]), .brew(["nss"])]
        ),
        .target(name: "AccountHandoff", dependencies: ["CSodium"], exclude: ["Errors/HandoffError.def"],
                resources: [.copy("Resources/Localizable.xcstrings")]),
        .target(
            name: "AccountHandoffLocalAuthentication",
            dependencies: ["AccountHandoff", .target(name: "CPAM", condition: .when(platforms: [.linux]))],
            resources: [.copy("Resources/Localizable.xcstrings")]
        ),
        // Not a product: runs PAMAuthenticator with answers from standard input, under pam_wrapper.
        .executableTarget(name: "pam-probe", dependencies: ["AccountHandoff", "AccountHandoffLocalAuthentication"], path: "Harness/pam-probe"),
        .target(name: "AccountHandoffImport", dependencies: ["AccountHandoff"], resources: [.copy("Resources/Localizable.xcstrings")]),
        .target(name: "AccountHandoffIMAPValidation", dependencies: ["AccountHandoff", "AccountHandoffImport", "CCurl"],
                resources: [.copy("Resources/Localizable.xcstrings")]),
        .target(name: "AccountHandoffReferenceStore", dependencies: ["AccountHandoff", "AccountHandoffImport", "CSQLite"],
                resources: [.copy("Resources/Localizable.xcstrings")]),
        .target(name: "AccountHandoffSecretService", dependencies: ["AccountHandoff", "AccountHandoffImport", "CLibSecret"],
                resources: [.copy("Resources/Localizable.xcstrings")]),
        // Not a product: a throwaway Secret Service (dbus-daemon plus gnome-keyring-daemon) for the tests.
        .target(name: "ThrowawaySecretService", dependencies: ["SpawnedChild"], path: "Harness/ThrowawaySecretService"),
        // Not a product: Debian's magic-wormhole transit relay (twistd) as a child process for the
        // tests, the demo and the bench.
        .target(name: "AccountHandoffTransitRelay", dependencies: ["SpawnedChild"], path: "Harness/AccountHandoffTransitRelay"),
        // Not a product: posix_spawn for the harness's servers (Dovecot, the transit relay).
        .target(name: "SpawnedChild", dependencies: ["CPOSIXSpawn"], path: "Harness/SpawnedChild"),
        // Not a product: a throwaway Dovecot IMAP server for the tests and the demo.
        .target(name: "AccountHandoffDovecot", dependencies: ["AccountHandoff", "CSodium", "SpawnedChild"], path: "Harness/AccountHandoffDovecot"),
        // Not a product: fault-injecting store wrappers and the transaction's kill points.
        .target(
            name: "AccountHandoffImportTestSupport",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffReferenceStore", "AccountHandoffIMAPValidation",
                           "AccountHandoffSecretService"], path: "Harness/AccountHandoffImportTestSupport"
        ),
        // Not a product: runs one import and stops at a named step so a test can SIGKILL it there.
        .executableTarget(
            name: "import-crash-probe",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffReferenceStore",
                           "AccountHandoffIMAPValidation", "AccountHandoffImportTestSupport", "AccountHandoffSecretService",
                           "AccountHandoffTestSupport"], path: "Harness/import-crash-probe"
        ),
        // Not a product: one Secret Service store operation in a process of its own (its own bus).
        .executableTarget(name: "secret-service-probe",
                          dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffSecretService"], path: "Harness/secret-service-probe"),
        // Not a product: claims one QR in a receiver registry file, for the cross-process race tests.
        .executableTarget(name: "registry-claim-probe", dependencies: ["AccountHandoff"], path: "Harness/registry-claim-probe"),
        // Not a product: a sending device that seals an offer no honest sender sends (port 0,
        // an unknown security value), for the CLI tests of the receiver's refusal.
        .executableTarget(name: "hostile-sender", dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffTransport"],
                          path: "Harness/hostile-sender"),
        // Not a product: seeded randomness and forged frames for tests, vectors and the bench.
        .target(name: "AccountHandoffTestSupport", dependencies: ["AccountHandoff"], path: "Harness/AccountHandoffTestSupport"),
        // Not a product: the bench's exact libsodium floor of a session and the reference
        // session it mirrors (`handoff-dev bench`); the only code besides Crypto/ that calls libsodium.
        .target(name: "AccountHandoffBench", dependencies: ["AccountHandoff", "CSodium", "CSodiumCounter"], path: "Harness/AccountHandoffBench"),
        // Not a product: counts a thread's libsodium calls for the bench's floor, where libsodium is
        // called (with glibc it defines the primitives in the program that links it, forwarding each).
        // DWARF 4: Scripts/allocations.sh runs session-probe, which links it, under Debian 12's
        // valgrind (3.19), which cannot read clang's default DWARF 5.
        .target(name: "CSodiumCounter", path: "Harness/CSodiumCounter", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // Not a product: counts a thread's heap allocations for `handoff-dev bench`. With glibc it
        // defines the malloc family of the program that links it, forwarding to glibc's own.
        .target(name: "CHeapCounter", path: "Harness/CHeapCounter"),
        // Not a product: runs the bench's reference session under a profiler (Scripts/allocations.sh).
        .executableTarget(name: "session-probe", dependencies: ["AccountHandoff", "AccountHandoffBench"], path: "Harness/session-probe"),
        // Not a product: builds Vectors/ for the vector tests and the CLI's `vectors` command.
        .target(name: "AccountHandoffVectors", dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffTransport"], path: "Harness/AccountHandoffVectors"),
        .target(name: "AccountHandoffQR", dependencies: ["AccountHandoff", "CQREncode", "CZlib"], resources: [.copy("Resources/Localizable.xcstrings")]),
        .target(name: "AccountHandoffTransport", dependencies: ["AccountHandoff", "CPOSIXAccept", "CEventPoll"],
                resources: [.copy("Resources/Localizable.xcstrings")]),
        // accept4 for the transport: accepted sockets close-on-exec from birth (Linux).
        .target(name: "CPOSIXAccept"),
        // epoll and eventfd for the transport's event loop (Linux; Darwin uses kqueue directly).
        .target(name: "CEventPoll"),
        // closefrom for the throwaway Dovecot's spawn: it inherits only its standard streams (glibc).
        .target(name: "CPOSIXSpawn", path: "Harness/CPOSIXSpawn"),
        // The command-line tool people run: library products only, and its own command-line code.
        .executableTarget(name: "handoff", dependencies: ["HandoffCLI"]),
        // The `handoff` command line (console, parser, manuals, the commands): shipped inside
        // `handoff`; the developer tool reuses its console and parser. Not a product.
        .target(name: "HandoffCLI", dependencies: ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffImport", "AccountHandoffReferenceStore", "AccountHandoffIMAPValidation", "AccountHandoffSecretService", "AccountHandoffLocalAuthentication", "AccountHandoffThunderbird"], resources: [.copy("Resources/Localizable.xcstrings")]),
        // Not a product: the developer tool (`handoff-dev demo`, `bench`, `vectors`) with the lab
        // it needs; the demo runs the `handoff` built next to it.
        .executableTarget(
            name: "handoff-dev",
            dependencies: ["handoff", "HandoffCLI", "AccountHandoff", "AccountHandoffBench", "CHeapCounter", "AccountHandoffQR",
                           "AccountHandoffTransport", "AccountHandoffVectors", "AccountHandoffImport", "AccountHandoffReferenceStore",
                           "AccountHandoffDovecot", "AccountHandoffTestSupport", "AccountHandoffTransitRelay", "AvahiHosts"],
            path: "Harness/handoff-dev"
        ),
        // Thunderbird profiles as a source (send) and a destination (receive) of an account.
        .target(name: "AccountHandoffThunderbird", dependencies: ["AccountHandoff", "AccountHandoffImport", "CNSS"],
            resources: [.copy("Resources/Localizable.xcstrings")]),
        // Not a product: a real headless Thunderbird (Debian's thunderbird) driven by the tests,
        // and one Thunderbird import in a process of its own that stops at a named step.
        .target(name: "ThunderbirdHarness", dependencies: ["AccountHandoff", "SpawnedChild"], path: "Harness/ThunderbirdHarness"),
        .executableTarget(name: "thunderbird-import-probe",
                          dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffThunderbird", "AccountHandoffIMAPValidation",
                                         "AccountHandoffTestSupport"],
                          path: "Harness/thunderbird-import-probe"),
        // Not a product: the simulated two-device world of the adversarial tests and Fuzz/.
        .target(name: "AccountHandoffSimulation", dependencies: ["AccountHandoff", "AccountHandoffTestSupport"], path: "Harness/AccountHandoffSimulation"),
        .testTarget(
            name: "AccountHandoffTests",
            dependencies: ["AccountHandoff", "AccountHandoffBench", "AccountHandoffTestSupport", "registry-claim-probe"]
        ),
        .testTarget(
            name: "AccountHandoffVectorTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffVectors", "AccountHandoffTransport"]
        ),
        .testTarget(
            name: "AccountHandoffQRTests",
            dependencies: ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTestSupport", "CZlib", "AccountHandoffTransport"]
        ),
        .testTarget(
            name: "AccountHandoffTransportTests",
            dependencies: ["AccountHandoff", "AccountHandoffTransport", "AccountHandoffTestSupport", "AccountHandoffTransitRelay"]
        ),
        .testTarget(name: "AccountHandoffFilesTests", dependencies: ["AccountHandoff"]),
        .testTarget(
            name: "HandoffCLITests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffTransport", "AccountHandoffReferenceStore",
                           "AccountHandoffDovecot", "AccountHandoffImport", "AccountHandoffSecretService", "ThrowawaySecretService", "handoff",
                           "handoff-dev", "AccountHandoffTransitRelay", "AccountHandoffThunderbird", "ThunderbirdHarness",
                           "hostile-sender", "HandoffCLI"]
        ),
        .testTarget(
            name: "AccountHandoffImportTests",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffReferenceStore",
                           "AccountHandoffIMAPValidation", "AccountHandoffDovecot", "AccountHandoffImportTestSupport", "AccountHandoffTestSupport",
                           "import-crash-probe", "CSQLite", "AccountHandoffSecretService", "ThrowawaySecretService",
                           "secret-service-probe", "SpawnedChild"]
        ),
        .testTarget(
            name: "AccountHandoffExampleTests",
            // The documentation's examples compile here, so every library they use is a dependency.
            dependencies: ["AccountHandoff", "AccountHandoffQR", "AccountHandoffImport", "AccountHandoffReferenceStore",
                           "AccountHandoffImportTestSupport", "AccountHandoffTestSupport", "AccountHandoffTransport",
                           "AccountHandoffLocalAuthentication", "AccountHandoffDovecot", "AccountHandoffTransitRelay"]
        ),
        .testTarget(
            name: "AccountHandoffLocalAuthenticationTests",
            dependencies: ["AccountHandoff", "AccountHandoffLocalAuthentication", "AccountHandoffTestSupport", "pam-probe"]
        ),
        // Every public error of the shipped modules reads as a sentence; the types and cases are
        // enumerated from Sources/, so this depends on every module the products ship.
        .testTarget(
            name: "AccountHandoffErrorSentenceTests",
            dependencies: ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffImport",
                           "AccountHandoffIMAPValidation", "AccountHandoffReferenceStore", "AccountHandoffLocalAuthentication",
                           "AccountHandoffSecretService", "AccountHandoffThunderbird"]
        ),
        .testTarget(
            name: "AccountHandoffThunderbirdTests",
            dependencies: ["AccountHandoff", "AccountHandoffImport", "AccountHandoffThunderbird", "AccountHandoffDovecot",
                           "AccountHandoffIMAPValidation", "AccountHandoffTestSupport", "ThunderbirdHarness", "thunderbird-import-probe",
                           "SpawnedChild"]
        ),
        .testTarget(
            name: "AccountHandoffAdversarialTests",
            dependencies: ["AccountHandoff", "AccountHandoffTestSupport", "AccountHandoffSimulation"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// DNS-SD discovery of the typed mode's sender: Avahi on Linux, Bonjour's dns_sd on Apple platforms,
// over a core that Linux tests; its harness runs hosts in network namespaces.
package.products.append(.library(name: "AccountHandoffDiscovery", targets: ["AccountHandoffDiscovery"]))
package.targets += [
    // libavahi-client talks to the Avahi daemon over D-Bus; Homebrew has no Avahi (Apple
    // platforms use dns_sd), so no brew provider.
    .systemLibrary(
        name: "CAvahi",
        pkgConfig: "avahi-client",
        providers: [.apt(["libavahi-client-dev"])]
    ),
    .target(
        name: "AccountHandoffDiscovery",
        dependencies: ["AccountHandoff", "AccountHandoffTransport", .target(name: "CAvahi", condition: .when(platforms: [.linux])),
                       .target(name: "CEventPoll", condition: .when(platforms: [.linux]))],
        resources: [.copy("Resources/Localizable.xcstrings")]
    ),
    // Not a product: hosts in network namespaces, each with its own D-Bus system bus and Avahi daemon.
    .target(name: "AvahiHosts", dependencies: ["SpawnedChild"], path: "Harness/AvahiHosts"),
    // Not a product: advertises or browses through AccountHandoffDiscovery in a host of AvahiHosts.
    .executableTarget(name: "dnssd-probe", dependencies: ["AccountHandoffDiscovery", "AccountHandoffTransport"], path: "Harness/dnssd-probe"),
    // Not a product: builds one host of AvahiHosts and waits to be killed.
    .executableTarget(name: "avahi-hosts-probe", dependencies: ["AvahiHosts"], path: "Harness/avahi-hosts-probe"),
    .testTarget(
        name: "AccountHandoffDiscoveryTests",
        // `handoff` and the reference store: the typed way end to end between hosts (TypedWay/).
        dependencies: ["AccountHandoffDiscovery", "AccountHandoffTransport", "AvahiHosts", "dnssd-probe", "avahi-hosts-probe", "handoff",
                       "AccountHandoffReferenceStore"]
    ),
]
for target in package.targets where target.name == "AccountHandoffErrorSentenceTests" {
    target.dependencies.append("AccountHandoffDiscovery")
}
// discovery.json (Spec 11.10) is generated from, and replayed through, the discovery core.
for target in package.targets where ["AccountHandoffVectors", "AccountHandoffVectorTests"].contains(target.name) {
    target.dependencies.append("AccountHandoffDiscovery")
}

// Receiving from a photo: `handoff receive --scan IMAGE` and the `AccountHandoffScan` product
// read the transfer code from a photo or screenshot of the QR code (PNG through libpng, JPEG
// through libjpeg, QR codes through zbar), or from a camera through zbar's video processor.
// Kept as one block of additions so that it merges beside other changes to the manifest.
package.products.append(.library(name: "AccountHandoffScan", targets: ["AccountHandoffScan"]))
package.targets += [
    .systemLibrary(
        name: "CZbar",
        pkgConfig: "zbar",
        providers: [.apt(["libzbar-dev"]), .brew(["zbar"])]
    ),
    .systemLibrary(
        name: "CPNG",
        pkgConfig: "libpng",
        providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
    ),
    // libjpeg-turbo; Homebrew's jpeg-turbo ships libjpeg.pc too.
    .systemLibrary(
        name: "CJPEG",
        pkgConfig: "libjpeg",
        providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
    ),
    // libjpeg's errors jump (longjmp) out of its calls, which must never cross Swift frames:
    // this C shim makes every libjpeg call below a setjmp of its own and returns status codes.
    .target(name: "CJPEGDecode", dependencies: ["CJPEG"]),
    .target(name: "AccountHandoffScan", dependencies: ["AccountHandoff", "CZbar", "CPNG", "CJPEGDecode"], resources: [.copy("Resources/Localizable.xcstrings")]),
    // Not a product: the photo experiment (codes drawn by `handoff qr --png`, photographed in
    // software by ImageMagick, read by AccountHandoffScan and by zbarimg) for its slow test
    // and Scripts/photo-table.sh.
    .target(name: "AccountHandoffPhotoLab", dependencies: ["AccountHandoff", "AccountHandoffScan", "AccountHandoffTestSupport"],
            path: "Harness/AccountHandoffPhotoLab"),
    // Not a product: prints the photo experiment's table (Scripts/photo-table.sh).
    .executableTarget(name: "photo-table", dependencies: ["AccountHandoffPhotoLab"], path: "Harness/photo-table"),
    .testTarget(
        name: "AccountHandoffScanTests",
        dependencies: ["AccountHandoff", "AccountHandoffScan", "AccountHandoffQR", "AccountHandoffTestSupport", "AccountHandoffPhotoLab",
                       "CZlib", "handoff"]
    ),
]
for target in package.targets {
    switch target.name {
    // The command line's `receive --scan` and `--camera` (the executable links HandoffCLI only),
    // and the typed way's discovery on the local network (Spec 11.10).
    case "HandoffCLI": target.dependencies += ["AccountHandoffScan", "AccountHandoffDiscovery"]
    // The CLI tests draw QR codes that are not transfer codes with the library, and photos with ImageMagick.
    case "HandoffCLITests": target.dependencies += ["AccountHandoffQR", "AccountHandoffPhotoLab"]
    // Every shipped module's public errors are sentences.
    case "AccountHandoffErrorSentenceTests": target.dependencies.append("AccountHandoffScan")
    default: break
    }
}

// What an app's tests link (as swift-nio ships NIOTestUtils): the in-memory channel pair, the
// manual clock, the scripted gate, the in-memory importer and account store the project's own tests use. No
// other product depends on it (ShippedAPITests); the harness's test support re-exports it.
package.products.append(.library(name: "AccountHandoffTestKit", targets: ["AccountHandoffTestKit"]))
package.targets.append(.target(name: "AccountHandoffTestKit", dependencies: ["AccountHandoff", "AccountHandoffImport"]))
for target in package.targets where target.name == "AccountHandoffTestSupport" {
    target.dependencies.append("AccountHandoffTestKit")
}

// Not a product: what the test targets share about the processes they start: the executables
// built next to the tests, and the slots that cap how many tests that start processes run at
// once. Every test target may use it; the CLI tests start their `handoff` children through
// SpawnedChild, which ties each child's life to the test process.
package.targets += [
    .target(name: "TestProcesses", path: "Harness/TestProcesses"),
    // Starts every throwaway server and a `handoff` child, then waits to be killed: the test of
    // what a killed test run leaves behind.
    .executableTarget(name: "servers-probe",
                      dependencies: ["AccountHandoff", "AccountHandoffDovecot", "AccountHandoffTransitRelay", "ThrowawaySecretService",
                                     "SpawnedChild"], path: "Harness/servers-probe"),
]
for target in package.targets where target.type == .test {
    target.dependencies.append("TestProcesses")
    if target.name == "HandoffCLITests" { target.dependencies += ["SpawnedChild", "servers-probe"] }
}
