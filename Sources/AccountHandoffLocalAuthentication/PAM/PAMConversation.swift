#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff

/// One thing a PAM module asks or tells the person, in the order the module sends them.
public enum PAMPrompt: Sendable, Hashable {
    /// A question whose answer must not be shown while typed (`PAM_PROMPT_ECHO_OFF`), such as
    /// `"Password: "`; answer with ``PAMAnswer/secret(_:)``.
    case secret(String)
    /// A question whose answer may be shown (`PAM_PROMPT_ECHO_ON`); answer with
    /// ``PAMAnswer/text(_:)``.
    case text(String)
    /// A message about a problem to show the person (`PAM_ERROR_MSG`), such as the
    /// authenticator's "try again" after a wrong password; answer with ``PAMAnswer/shown``.
    case error(String)
    /// A message to show the person (`PAM_TEXT_INFO`); answer with ``PAMAnswer/shown``.
    case info(String)

    /// Whether the module waits for an answer (a question) rather than an acknowledgement.
    public var isQuestion: Bool {
        switch self {
        case .secret, .text: true
        case .error, .info: false
        }
    }
}

/// The person's answer to one ``PAMPrompt``.
public enum PAMAnswer: Sendable {
    /// The answer to a question, typically the password. The authenticator copies it into the
    /// buffer PAM asked for and wipes it; the caller must not use it afterwards.
    case secret(SecretBytes)
    /// The answer to a ``PAMPrompt/text(_:)`` question. It travels as a `String`, so it must
    /// not be a secret.
    case text(String)
    /// The message was shown.
    case shown
}

/// The app's side of a PAM conversation: shows what PAM modules ask or say and collects the
/// person's answers, one ``PAMPrompt`` at a time.
///
/// ``PAMAuthenticator`` calls ``answer(_:for:)`` from the task that called
/// ``PAMAuthenticator/authenticate(for:)``, never concurrently with itself; the PAM thread
/// waits while the answer is produced.
///
/// Rules for an answer:
/// - a question (``PAMPrompt/isQuestion``) is answered with ``PAMAnswer/secret(_:)`` or
///   ``PAMAnswer/text(_:)``; ``PAMAnswer/shown`` there ends the authentication as
///   ``LocalAuthenticationFailure/unavailable(detail:)`` (a programming error of the app);
/// - a message is answered with ``PAMAnswer/shown`` (any other answer is ignored, a secret is
///   wiped);
/// - `nil` means the person cancelled: the authentication ends as
///   ``LocalAuthenticationResult/cancelled``.
///
/// - Warning: When the calling task is cancelled, ``answer(_:for:)`` must return `nil` promptly
///   (for example by dismissing its dialog); the authenticator waits for it. A secret answer
///   must come from guarded memory the app filled from its input field (``SecretBytes``), not
///   from a `String`, which cannot be wiped.
public protocol PAMConversation: Sendable {
    /// Shows `prompt` and returns the person's answer, or `nil` when they cancel.
    ///
    /// - Parameters:
    ///   - prompt: the question or message a PAM module sent (its text comes from the module
    ///     or the authenticator and never holds a secret).
    ///   - purpose: why the app authenticates; show ``LocalAuthenticationPurpose/reason`` with
    ///     the question (PAM's own prompts say only what to type).
    /// - Returns: the answer; `nil` when the person cancelled or the task was cancelled.
    func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer?
}
#endif
