import AccountHandoff
import AccountHandoffImport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples of the errors of module `AccountHandoffImport`.
enum ImportErrorSamples {
    static var all: [ErrorSample] {
        importErrors.map { ErrorSample($0) }
            + keychainViolations.map { ErrorSample($0) }
            + validationFailures.map { ErrorSample($0, variants: [$0.message(for: markedAccount), $0.readinessSentence]) }
            + storeFailures.map { ErrorSample($0) }
            + accountStoreErrors.map { ErrorSample($0) }
            + credentialStoreErrors.map { ErrorSample($0) }
    }

    /// An account whose person-chosen fields carry ``secretMarker``: a validation message may
    /// name the server, never the person's name or user name.
    static let markedAccount = try! AccountMetadata(
        linkID: AccountLinkID(uuid: UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")!),
        displayName: "Ada \(secretMarker)", emailAddress: "ada@example.org", username: secretMarker,
        imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)

    static let localID = LocalAccountID(rawValue: "a1b2c3")!

    static let storeFailures: [StoreFailure] = [
        StoreFailure(operation: "mkdirat(/home/ada/.handoff/credentials)", domain: .posix, code: EACCES),
        StoreFailure(operation: "fsync(credentials)", domain: .posix, code: ENOSPC),
        StoreFailure(operation: "openat(accounts.sqlite)", domain: .posix, code: EROFS),
        StoreFailure(operation: "open(/home/ada/.handoff)", domain: .posix, code: ENOENT),
        StoreFailure(operation: "guarded allocation", domain: .posix, code: ENOMEM),
        StoreFailure(operation: "read(a1b2c3) changed size", domain: .posix, code: EIO),
        StoreFailure(operation: "renameat(credentials)", domain: .posix, code: 9999),
        StoreFailure(operation: "COMMIT", domain: .sqlite, code: 5),
        StoreFailure(operation: "COMMIT", domain: .sqlite, code: 5 | (2 << 8)),
        StoreFailure(operation: "INSERT INTO accounts", domain: .sqlite, code: 13),
        StoreFailure(operation: "PRAGMA integrity_check", domain: .sqlite, code: 11),
        StoreFailure(operation: "PRAGMA journal_mode = WAL", domain: .sqlite, code: 1),
        StoreFailure(operation: "UPDATE accounts", domain: .sqlite, code: 8),
        StoreFailure(operation: "sqlite3_open_v2", domain: .sqlite, code: 14),
        StoreFailure(operation: "sqlite3_open_v2", domain: .sqlite, code: 26),
        StoreFailure(operation: "sqlite3_step", domain: .sqlite, code: 200),
        StoreFailure(operation: "SecItemAdd", domain: .keychain, code: -34018),
        StoreFailure(operation: "SecItemCopyMatching", domain: .keychain, code: -25308),
        StoreFailure(operation: "SecItemDelete", domain: .keychain, code: -1),
        StoreFailure(operation: "secret_password_store_sync (g-dbus-error-quark)", domain: .secretService, code: 2),
        StoreFailure(.readingCredentialOfChangingAccount, domain: .posix, code: EAGAIN),
        StoreFailure(.readingKeyringReply(method: "Get(Collection.Locked)"), domain: .secretService, code: 0),
    ]

    static let locationProblems: [StoreLocationProblem] = [
        .symbolicLink(path: "/home/ada/.handoff"), .notADirectory(path: "/home/ada/.handoff"),
        .notARegularFile(path: "/home/ada/.handoff/accounts.sqlite"), .permissionsTooOpen(path: "/home/ada/.handoff", mode: 0o777),
        .ownedByAnotherUser(path: "/home/ada/.handoff", owner: 65534), .missingParent(path: "/home/ada/.handoff"),
    ]

    static var accountStoreErrors: [AccountStoreError] {
        locationProblems.map(AccountStoreError.unsafeLocation) + storeFailures.map(AccountStoreError.failed) + [
            .readOnly, .corrupt("row 3 missing from index accounts_email"), .unsupportedSchema(7), .changedMeanwhile,
            .linkIDAlreadyStored, .accountNotFound(localID), .invalidRecord("imap_port"), .lockedByAnotherProcess(waitedSeconds: 30),
        ]
    }

    static var credentialStoreErrors: [CredentialStoreError] {
        locationProblems.map(CredentialStoreError.unsafeLocation) + storeFailures.map(CredentialStoreError.failed) + [
            .credentialNotFound, .emptyCredential, .credentialTooLarge(byteCount: 70_000), .keychain(status: -34018),
            .keychain(status: -25299), .keychain(status: -12345), .policyViolation(.fileBasedKeychainOnMacOS),
            .sessionBusUnavailable, .secretServiceUnavailable, .keyringLocked, .keyringHasNoDefaultCollection,
            .accountStore(.invalidRecord("imap_port")), .accountStore(.corrupt("database disk image is malformed")),
        ]
    }

    static let keychainViolations: [KeychainPolicyViolation] = [
        .synchronizableWithThisDeviceOnly(.whenUnlockedThisDeviceOnly), .synchronizableInDeviceBoundNamespace,
        .accessGroupWithoutTeamIDPrefix("com.example.shared"),
        .accessGroupWithoutDataProtectionKeychainOnMacOS("A1B2C3D4E5.com.example.shared"),
        .appGroupAsKeychainGroupOnMacOS("group.com.example.mail"), .fileBasedKeychainOnMacOS,
        .unscopedDelete(missing: [.service]), .unscopedDelete(missing: [.service, .account]),
        .invalidServiceNamespace(".com.example"), .platformMismatch(policy: .macOS, running: .iOSFamily),
    ]

    static let validationFailures: [ValidationFailure] = [
        .authenticationFailed, .untrustedCertificate(verificationCode: 20), .hostNameMismatch, .hostNotFound,
        .serverUnreachable, .timedOut, .tlsUnavailable, .tlsHandshakeFailed, .notIMAPServer, .unsupportedHost, .unsupportedCredential,
        .otherFailure(code: 56), .cancelled,
        .validatorNotReady(reason: "The certificate authority file /etc/ssl/certs/ca-certificates.crt is missing; install ca-certificates."),
        .validatorNotReady(reason: ""),
    ]

    static var importErrors: [ImportError] {
        [
            .importInProgress(markedAccount.linkID), .accountChangedMeanwhile, .choiceRequired,
            .choiceNotAllowed(.replace(localID)), .choiceNotAllowed(.keepBoth), .choiceNotAllowed(.cancel),
            .alreadyFinished, .deliveredAccountDiffersFromOffer,
            .commitUncertain(.failed(storeFailures[0])), .commitUncertain(.readOnly),
        ]
            + accountStoreErrors.map(ImportError.metadataStore)
            + credentialStoreErrors.map(ImportError.credentialStore)
            + validationFailures.map(ImportError.validatorNotReady)
    }
}
