import AccountHandoff
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples of the errors of module `AccountHandoff`.
enum CoreErrorSamples {
    static var all: [ErrorSample] {
        handoffErrors.map { ErrorSample($0, variants: [$0.message(for: .sender), $0.message(for: .receiver)]) }
            + secureMemoryFailures.map { ErrorSample($0) }
            + registryFailures.map { ErrorSample($0) }
            + localAuthenticationFailures.map { ErrorSample($0) }
            + importNotReady.map { ErrorSample($0) }
    }

    /// `mappingFailed` with a code the words table lacks (`ESRCH`: the C library's words)
    /// and one no system names.
    static let secureMemoryFailures: [SecureMemoryFailure] = [
        .lockLimitReached, .mappingLimitReached, .mappingFailed(errno: EINVAL), .mappingFailed(errno: ESRCH),
        .mappingFailed(errno: 9999), .protectionFailed(errno: ENOMEM), .lockFailed(errno: EPERM),
        .dumpExclusionFailed(errno: EINVAL),
    ]

    static let registryFailures: [RegistryStorageFailure] = [
        .unreadable(errno: EACCES), .unwritable(errno: ENOSPC), .unwritable(errno: EROFS), .corrupt, .notARegularFile,
    ]

    static let localAuthenticationFailures: [LocalAuthenticationFailure] = [
        .notRecognized, .lockedOut, .unavailable(detail: "No passcode or password is set on this device."),
        .unavailable(detail: "The PAM service \"handoff\" could not authenticate ada: one of its modules failed (PAM_SERVICE_ERR)"),
        .unavailable(detail: ""),
    ]

    static let importNotReady: [ImportNotReady] = [
        .choiceRequired,
        .storeUnavailable(reason: "The account database on this device is read-only, so the account could not be saved. Make the storage writable, then start a new transfer."),
        .storeUnavailable(reason: ""),
    ]

    static var handoffErrors: [HandoffError] {
        let phases = SenderPhase.allCases.map(SessionPhase.sender) + ReceiverPhase.allCases.map(SessionPhase.receiver)
        var errors: [HandoffError] = [
            .badMagic, .unsupportedVersion(9), .wrongIntent(7), .nonCanonicalEncoding, .rendezvousTooLong(40),
            .expired, .expiryTooFar, .oversizedFrame(70_000), .unknownMessageType(99), .unknownTransfer, .replayed,
            .outOfOrder, .authenticationFailed, .lowOrderPublicKey, .commitmentMismatch, .keyDerivationFailed,
            .invalidClock, .sessionFinished, .cancelledByPeer, .rejectedByPeer, .anotherDeviceJoined, .storeUnavailable,
            .peerStoreUnavailable, .notAuthenticated, .peerNotAuthenticated, .importChoiceRequired, .transportLost,
            .senderUnreachable, .transferIDInUse, .alreadyScanned, .transferConsumed, .invalidConfiguration,
            .typedCodeCheckFailed, .typedCodeIsShortCode, .invalidPakeShare, .typedCodeAlreadyUsed, .typedCodeMismatch,
            .typedCodeUnconfirmed, .typedRunsBusy,
        ]
        errors += HandoffError.Field.allCases.map(HandoffError.malformed)
        errors += MessageType.allCases.flatMap { type in phases.map { HandoffError.unexpectedMessage(type, in: $0) } }
        errors += LocalEvent.allCases.flatMap { event in phases.map { HandoffError.invalidEvent(event, in: $0) } }
        errors += secureMemoryFailures.map(HandoffError.secureMemoryUnavailable)
        errors += registryFailures.map(HandoffError.registryUnavailable)
        return errors
    }
}
