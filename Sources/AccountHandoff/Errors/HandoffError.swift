/// Every failure AccountHandoff reports. Each error is specific, carries no secret bytes, and
/// has a stable ``identifier`` that `Spec/` and `Vectors/` use (Spec 7.2). Sentences for
/// people are in ``sentence(in:)`` and ``message(for:in:)`` (in a ``HandoffLanguage``), and
/// in English in ``description`` and ``message(for:)``.
///
/// `HandoffError` is a struct, not an enum, so that new errors can be added without breaking
/// apps: do not assume the list below is closed. Create and compare errors with the static
/// members (`throw HandoffError.expired`, `error == .malformed(.digits)`,
/// `catch HandoffError.expired`, `case .expired:` in a `switch` with a `default`), or switch
/// over ``code`` with a `default`. Payloads are read with ``field``, ``secureMemoryFailure``
/// and ``registryFailure``.
///
/// ## Topics
///
/// ### Reading an error
/// - ``code``
/// - ``Code``
/// - ``identifier``
/// - ``field``
/// - ``Field``
/// - ``secureMemoryFailure``
/// - ``registryFailure``
/// - ``message(for:)``
///
/// ### Parsing: the QR text, a frame or a message cannot be read
/// - ``badMagic``
/// - ``unsupportedVersion(_:)``
/// - ``wrongIntent(_:)``
/// - ``nonCanonicalEncoding``
/// - ``rendezvousTooLong(_:)``
/// - ``malformed(_:)``
/// - ``expiryTooFar``
/// - ``typedCodeCheckFailed``
/// - ``typedCodeIsShortCode``
/// - ``typedCodeAlreadyUsed``
/// - ``typedCodeMismatch``
/// - ``typedCodeUnconfirmed``
/// - ``typedRunsBusy``
/// - ``oversizedFrame(_:)``
/// - ``unknownMessageType(_:)``
///
/// ### Peer: the other device, the protocol or the session's time
/// - ``expired``
/// - ``unknownTransfer``
/// - ``replayed``
/// - ``outOfOrder``
/// - ``unexpectedMessage(_:in:)``
/// - ``authenticationFailed``
/// - ``lowOrderPublicKey``
/// - ``invalidPakeShare``
/// - ``commitmentMismatch``
/// - ``keyDerivationFailed``
/// - ``cancelledByPeer``
/// - ``rejectedByPeer``
/// - ``anotherDeviceJoined``
/// - ``peerStoreUnavailable``
/// - ``peerNotAuthenticated``
///
/// ### Misuse: the app asked for something the session or its settings do not allow
/// - ``invalidEvent(_:in:)``
/// - ``invalidClock``
/// - ``sessionFinished``
/// - ``importChoiceRequired``
/// - ``invalidConfiguration``
/// - ``transferIDInUse``
/// - ``alreadyScanned``
/// - ``transferConsumed``
///
/// ### Environment: this device's stores, memory, authentication or network
/// - ``storeUnavailable``
/// - ``notAuthenticated``
/// - ``transportLost``
/// - ``senderUnreachable``
/// - ``secureMemoryUnavailable(_:)``
/// - ``registryUnavailable(_:)``
public struct HandoffError: Error, Hashable, Sendable {
    /// A named field of a payload, frame or message, used by ``malformed(_:)``.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case length, digits, version, intent, expiry, commitment, publicKey
        case rendezvous, frameHeader, frameLength, body, sequence
        case accountLinkID, displayName, emailAddress, username, imapHost, imapPort, imapSecurity, senderGate
        case padding, credential, receiptStatus, receiverGate, abortReason, trailingBytes, typedCode
    }

    /// The failure with its payload; the package switches over it exhaustively.
    package let kind: Kind

    /// The error of `kind`.
    package init(_ kind: Kind) {
        self.kind = kind
    }

    /// Matches a caught error against one of the static members, so that
    /// `catch HandoffError.expired` and `case HandoffError.expired:` work on `any Error`.
    /// - Parameters:
    ///   - pattern: The expected error, payload included.
    ///   - value: Any error.
    /// - Returns: Whether `value` is a `HandoffError` equal to `pattern`.
    public static func ~= (pattern: HandoffError, value: any Error) -> Bool {
        (value as? HandoffError) == pattern
    }
}

extension HandoffError {
    /// A stable, secret-free identifier such as `malformed.commitment` (Spec 7.2): the
    /// ``code``'s name, and for ``malformed(_:)`` the field's.
    public var identifier: String {
        guard case .malformed(let field) = kind else { return code.description }
        return "\(code.description).\(field.rawValue)"
    }

    /// The field that is missing or malformed, for ``malformed(_:)``; `nil` for every other error.
    public var field: Field? {
        guard case .malformed(let field) = kind else { return nil }
        return field
    }

    /// Why guarded memory could not be obtained, for ``secureMemoryUnavailable(_:)``; `nil` otherwise.
    public var secureMemoryFailure: SecureMemoryFailure? {
        guard case .secureMemoryUnavailable(let failure) = kind else { return nil }
        return failure
    }

    /// Why the registry could not record, for ``registryUnavailable(_:)``; `nil` otherwise.
    public var registryFailure: RegistryStorageFailure? {
        guard case .registryUnavailable(let failure) = kind else { return nil }
        return failure
    }
}
