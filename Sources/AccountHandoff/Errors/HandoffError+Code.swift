extension HandoffError {
    /// What kind of error this is, without its payload: a value apps can compare and switch
    /// over (with a `default`, since new codes are added). Its ``description`` is the first
    /// part of ``HandoffError/identifier`` (Spec 7.2).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name: the first part of the identifier, unique per code (Spec 7.2;
        /// `HandoffErrorSurfaceTests` checks every name against the Spec's table).
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The code's name, such as `malformed`; stable across versions (Spec 7.2).
        public var description: String { name }

        // Parsing: the QR text, a frame or a message cannot be read.
        /// The code of ``HandoffError/badMagic``.
        public static let badMagic = Code("badMagic")
        /// The code of ``HandoffError/unsupportedVersion(_:)``.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The code of ``HandoffError/wrongIntent(_:)``.
        public static let wrongIntent = Code("wrongIntent")
        /// The code of ``HandoffError/nonCanonicalEncoding``.
        public static let nonCanonicalEncoding = Code("nonCanonicalEncoding")
        /// The code of ``HandoffError/rendezvousTooLong(_:)``.
        public static let rendezvousTooLong = Code("rendezvousTooLong")
        /// The code of ``HandoffError/malformed(_:)``.
        public static let malformed = Code("malformed")
        /// The code of ``HandoffError/expiryTooFar``.
        public static let expiryTooFar = Code("expiryTooFar")
        /// The code of ``HandoffError/typedCodeCheckFailed``.
        public static let typedCodeCheckFailed = Code("typedCodeCheckFailed")
        /// The code of ``HandoffError/typedCodeIsShortCode``.
        public static let typedCodeIsShortCode = Code("typedCodeIsShortCode")
        /// The code of ``HandoffError/typedCodeAlreadyUsed``.
        public static let typedCodeAlreadyUsed = Code("typedCodeAlreadyUsed")
        /// The code of ``HandoffError/typedCodeMismatch``.
        public static let typedCodeMismatch = Code("typedCodeMismatch")
        /// The code of ``HandoffError/typedCodeUnconfirmed``.
        public static let typedCodeUnconfirmed = Code("typedCodeUnconfirmed")
        /// The code of ``HandoffError/typedRunsBusy``.
        public static let typedRunsBusy = Code("typedRunsBusy")
        /// The code of ``HandoffError/oversizedFrame(_:)``.
        public static let oversizedFrame = Code("oversizedFrame")
        /// The code of ``HandoffError/unknownMessageType(_:)``.
        public static let unknownMessageType = Code("unknownMessageType")

        // Peer: the other device, the protocol or the session's time.
        /// The code of ``HandoffError/expired``.
        public static let expired = Code("expired")
        /// The code of ``HandoffError/unknownTransfer``.
        public static let unknownTransfer = Code("unknownTransfer")
        /// The code of ``HandoffError/replayed``.
        public static let replayed = Code("replayed")
        /// The code of ``HandoffError/outOfOrder``.
        public static let outOfOrder = Code("outOfOrder")
        /// The code of ``HandoffError/unexpectedMessage(_:in:)``.
        public static let unexpectedMessage = Code("unexpectedMessage")
        /// The code of ``HandoffError/authenticationFailed``.
        public static let authenticationFailed = Code("authenticationFailed")
        /// The code of ``HandoffError/lowOrderPublicKey``.
        public static let lowOrderPublicKey = Code("lowOrderPublicKey")
        /// The code of ``HandoffError/invalidPakeShare``.
        public static let invalidPakeShare = Code("invalidPakeShare")
        /// The code of ``HandoffError/commitmentMismatch``.
        public static let commitmentMismatch = Code("commitmentMismatch")
        /// The code of ``HandoffError/keyDerivationFailed``.
        public static let keyDerivationFailed = Code("keyDerivationFailed")
        /// The code of ``HandoffError/cancelledByPeer``.
        public static let cancelledByPeer = Code("cancelledByPeer")
        /// The code of ``HandoffError/rejectedByPeer``.
        public static let rejectedByPeer = Code("rejectedByPeer")
        /// The code of ``HandoffError/anotherDeviceJoined``.
        public static let anotherDeviceJoined = Code("anotherDeviceJoined")
        /// The code of ``HandoffError/peerStoreUnavailable``.
        public static let peerStoreUnavailable = Code("peerStoreUnavailable")
        /// The code of ``HandoffError/peerNotAuthenticated``.
        public static let peerNotAuthenticated = Code("peerNotAuthenticated")

        // Misuse: the app asked for something the session or its settings do not allow.
        /// The code of ``HandoffError/invalidEvent(_:in:)``.
        public static let invalidEvent = Code("invalidEvent")
        /// The code of ``HandoffError/invalidClock``.
        public static let invalidClock = Code("invalidClock")
        /// The code of ``HandoffError/sessionFinished``.
        public static let sessionFinished = Code("sessionFinished")
        /// The code of ``HandoffError/importChoiceRequired``.
        public static let importChoiceRequired = Code("importChoiceRequired")
        /// The code of ``HandoffError/invalidConfiguration``.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The code of ``HandoffError/transferIDInUse``.
        public static let transferIDInUse = Code("transferIDInUse")
        /// The code of ``HandoffError/alreadyScanned``.
        public static let alreadyScanned = Code("alreadyScanned")
        /// The code of ``HandoffError/transferConsumed``.
        public static let transferConsumed = Code("transferConsumed")

        // Environment: this device's stores, memory, authentication or network.
        /// The code of ``HandoffError/storeUnavailable``.
        public static let storeUnavailable = Code("storeUnavailable")
        /// The code of ``HandoffError/notAuthenticated``.
        public static let notAuthenticated = Code("notAuthenticated")
        /// The code of ``HandoffError/transportLost``.
        public static let transportLost = Code("transportLost")
        /// The code of ``HandoffError/senderUnreachable``.
        public static let senderUnreachable = Code("senderUnreachable")
        /// The code of ``HandoffError/secureMemoryUnavailable(_:)``.
        public static let secureMemoryUnavailable = Code("secureMemoryUnavailable")
        /// The code of ``HandoffError/registryUnavailable(_:)``.
        public static let registryUnavailable = Code("registryUnavailable")
    }

    /// What kind of error this is, without its payload.
    public var code: Code {
        switch kind {
        case .badMagic: .badMagic
        case .unsupportedVersion: .unsupportedVersion
        case .wrongIntent: .wrongIntent
        case .nonCanonicalEncoding: .nonCanonicalEncoding
        case .rendezvousTooLong: .rendezvousTooLong
        case .malformed: .malformed
        case .expired: .expired
        case .expiryTooFar: .expiryTooFar
        case .typedCodeCheckFailed: .typedCodeCheckFailed
        case .typedCodeIsShortCode: .typedCodeIsShortCode
        case .typedCodeAlreadyUsed: .typedCodeAlreadyUsed
        case .typedCodeMismatch: .typedCodeMismatch
        case .typedCodeUnconfirmed: .typedCodeUnconfirmed
        case .typedRunsBusy: .typedRunsBusy
        case .oversizedFrame: .oversizedFrame
        case .unknownMessageType: .unknownMessageType
        case .unknownTransfer: .unknownTransfer
        case .replayed: .replayed
        case .outOfOrder: .outOfOrder
        case .unexpectedMessage: .unexpectedMessage
        case .authenticationFailed: .authenticationFailed
        case .lowOrderPublicKey: .lowOrderPublicKey
        case .invalidPakeShare: .invalidPakeShare
        case .commitmentMismatch: .commitmentMismatch
        case .keyDerivationFailed: .keyDerivationFailed
        case .invalidEvent: .invalidEvent
        case .invalidClock: .invalidClock
        case .sessionFinished: .sessionFinished
        case .cancelledByPeer: .cancelledByPeer
        case .rejectedByPeer: .rejectedByPeer
        case .anotherDeviceJoined: .anotherDeviceJoined
        case .storeUnavailable: .storeUnavailable
        case .peerStoreUnavailable: .peerStoreUnavailable
        case .notAuthenticated: .notAuthenticated
        case .peerNotAuthenticated: .peerNotAuthenticated
        case .importChoiceRequired: .importChoiceRequired
        case .transportLost: .transportLost
        case .senderUnreachable: .senderUnreachable
        case .transferIDInUse: .transferIDInUse
        case .alreadyScanned: .alreadyScanned
        case .transferConsumed: .transferConsumed
        case .invalidConfiguration: .invalidConfiguration
        case .secureMemoryUnavailable: .secureMemoryUnavailable
        case .registryUnavailable: .registryUnavailable
        }
    }
}
