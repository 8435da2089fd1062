#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff
import Foundation
import Glibc

/// Re-authenticates the person at this Linux device through PAM, as a screen locker does,
/// before a credential is sent or received (Spec 8.7).
///
/// Each call authenticates the process's real user (looked up with `getpwuid_r`) with the
/// configured PAM service: `pam_start`, `pam_authenticate` up to
/// ``PAMAuthenticatorConfiguration/maximumTries`` times (telling the person to try again
/// between tries), then `pam_acct_mgmt` and `pam_end`. PAM's calls block, so they run on a
/// thread of their own; its questions reach the app's ``PAMConversation`` on the calling
/// task, and the PAM thread waits for each answer.
///
/// Results:
/// - the right password (and an account PAM accepts): ``LocalAuthenticationResult/authenticated``;
/// - a wrong answer on every try: ``LocalAuthenticationFailure/notRecognized``;
/// - `PAM_MAXTRIES` from a module, or an account PAM refuses or reports expired
///   (`PAM_PERM_DENIED`, `PAM_ACCT_EXPIRED`): ``LocalAuthenticationFailure/lockedOut``;
/// - the conversation returned `nil`, or the task was cancelled: ``LocalAuthenticationResult/cancelled``;
/// - no user name for the user ID, a missing service or module, a service that refuses
///   without asking, an expired password, PAM's own errors:
///   ``LocalAuthenticationFailure/unavailable(detail:)`` with a secret-free sentence.
///
/// Construct one per app (it holds no state between calls), with the app's conversation
/// (here `PasswordDialog`, a type of the app's that conforms to ``PAMConversation``):
/// ```swift
/// let gate = PAMAuthenticator(conversation: PasswordDialog())
/// let result = await gate.authenticate(for: .sendCredential(account, receiverGate: .asks))
/// ```
///
/// - Warning: The typed password lives in the ``SecretBytes`` of the conversation's answer
///   until it is copied into the C string PAM asks for (PAM frees that string; Linux-PAM's
///   modules overwrite it first). That copy is the one PAM's interface makes unavoidable.
///   The authenticator wipes the answer right after copying it.
public struct PAMAuthenticator: LocalAuthenticator {
    /// The service and the number of tries.
    public let configuration: PAMAuthenticatorConfiguration
    private let conversation: any PAMConversation
    private let userID: uid_t?

    /// An authenticator for the process's real user.
    ///
    /// - Parameters:
    ///   - configuration: the PAM service and the number of tries; by default the service
    ///     `handoff` and 3 tries (see ``PAMAuthenticatorConfiguration/defaultServiceName``).
    ///   - conversation: shows PAM's prompts to the person and collects the answers.
    public init(configuration: PAMAuthenticatorConfiguration = PAMAuthenticatorConfiguration(), conversation: any PAMConversation) {
        self.init(configuration: configuration, conversation: conversation, userID: nil)
    }

    /// Test hook: authenticates `userID` instead of the process's real user (for example one
    /// without a user name, to see the unavailable result).
    package init(configuration: PAMAuthenticatorConfiguration, conversation: any PAMConversation, userID: uid_t?) {
        self.configuration = configuration
        self.conversation = conversation
        self.userID = userID
    }

    /// The user the gate authenticates: the process's real user, unless a test named another.
    var authenticatedUserID: uid_t { userID ?? getuid() }

    /// Asks the person, through the conversation, to prove they are this device's user.
    ///
    /// - Parameter purpose: why; handed to the conversation with each prompt.
    /// - Returns: how the authentication ended; ``LocalAuthenticationResult/cancelled`` as soon
    ///   as the task is cancelled (the PAM thread then finishes on its own).
    /// PAM asks the person: ``GateDeclaration/asks``.
    public var gateDeclaration: GateDeclaration { .asks }

    public func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        guard !Task.isCancelled else { return .cancelled }
        let bridge = PAMPromptBridge()
        let transaction = PAMTransaction(serviceName: configuration.serviceName, maximumTries: configuration.maximumTries,
                                         userID: authenticatedUserID, language: configuration.language,
                                         context: PAMConversationContext(bridge: bridge, language: configuration.language))
        // PAM's calls block, and wait for the person's answers, which the app's conversation
        // may fetch with work of the I/O pool: so not on a pool thread (work there never waits
        // for other work of the pool), on a thread of its own.
        let thread = Thread { bridge.finish(BlockingCall.run("pam_authenticate") { transaction.run() }) }
        thread.name = "AccountHandoff PAM"
        thread.start()
        return await withTaskCancellationHandler {
            for await event in bridge.events {
                switch event {
                case .prompt(let prompt):
                    bridge.reply(await conversation.answer(prompt, for: purpose))
                case .finished(let result):
                    return bridge.isCancelled ? .cancelled : result
                }
            }
            return .cancelled  // the events ended without a result: cancelled
        } onCancel: {
            bridge.cancel()
        }
    }
}
#endif
