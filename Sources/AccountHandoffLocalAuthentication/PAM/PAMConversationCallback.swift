#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff
import CPAM
import Glibc

/// The C conversation function handed to `pam_start`. Runs on the PAM thread; `context` is the
/// transaction's ``PAMConversationContext``, unretained (the transaction keeps it alive until
/// `pam_end`).
///
/// Follows Linux-PAM's contract: one response per message, in a `calloc`ed array whose
/// answers are `malloc`ed C strings that the module frees; on failure nothing is returned
/// and everything allocated here is wiped and freed. Messages that need no answer are shown
/// even when the module passes no place for responses (pam_wrapper's pam_matrix does that
/// for its `verbose` messages); a question then fails the conversation.
let pamConversationCallback: @convention(c) (
    Int32, UnsafeMutablePointer<UnsafePointer<pam_message>?>?, UnsafeMutablePointer<UnsafeMutablePointer<pam_response>?>?,
    UnsafeMutableRawPointer?
) -> Int32 = { count, messages, responses, context in
    guard count > 0, count <= PAM_MAX_NUM_MSG, let messages, let context else { return PAM_CONV_ERR }
    let conversation = Unmanaged<PAMConversationContext>.fromOpaque(context).takeUnretainedValue()
    var replies: UnsafeMutablePointer<pam_response>?
    if responses != nil {
        replies = calloc(Int(count), MemoryLayout<pam_response>.stride)?.assumingMemoryBound(to: pam_response.self)
        guard replies != nil else { return PAM_BUF_ERR }
    }
    for index in 0..<Int(count) {
        let response = messages[index].map { message in
            conversation.respond(style: message.pointee.msg_style, text: message.pointee.msg.map { String(cString: $0) } ?? "",
                                 canAnswer: replies != nil)
        }
        switch response ?? .refused {
        case .answered(let answer): replies?[index].resp = answer  // only when `replies` exists
        case .acknowledged: break  // calloc left the response empty
        case .refused:
            PAMResponses.discard(replies, count: Int(count))
            return PAM_CONV_ERR
        }
    }
    responses?.pointee = replies
    return PAM_SUCCESS
}

/// What the conversation function needs: the bridge to the task, and why the conversation
/// could not go on other than by a cancel, which ends the authentication as unavailable.
final class PAMConversationContext: @unchecked Sendable {
    // Safety of @unchecked Sendable: `failure` is written only on the PAM thread and read
    // there after the PAM call returns.
    let bridge: PAMPromptBridge
    /// The language of ``failure``.
    let language: HandoffLanguage
    /// A secret-free sentence: why the conversation failed (an answer PAM cannot carry, a
    /// prompt the app cannot show); `nil` while it has not.
    private(set) var failure: String?

    init(bridge: PAMPromptBridge, language: HandoffLanguage) {
        self.bridge = bridge
        self.language = language
    }

    /// How one message is answered.
    enum Response {
        /// A question's answer, `malloc`ed for PAM.
        case answered(UnsafeMutablePointer<CChar>)
        /// A message was shown; its response stays empty.
        case acknowledged
        /// The conversation fails: cancelled, or the app's answer cannot be passed on.
        case refused
    }

    /// The response to one message of PAM's; a question is refused unasked when PAM gave no
    /// place for the answer (`canAnswer` false).
    func respond(style: Int32, text: String, canAnswer: Bool) -> Response {
        let prompt: PAMPrompt
        switch style {
        case PAM_PROMPT_ECHO_OFF: prompt = .secret(text)
        case PAM_PROMPT_ECHO_ON: prompt = .text(text)
        case PAM_ERROR_MSG: prompt = .error(text)
        case PAM_TEXT_INFO: prompt = .info(text)
        default:
            // Linux-PAM's binary prompts carry no text a person could answer.
            failure = sentenceCatalog.sentence("pam.conversation.unknownStyle", .number(style), in: language)
            return .refused
        }
        guard canAnswer || !prompt.isQuestion else {
            failure = sentenceCatalog.sentence("pam.conversation.noPlaceForAnswer", in: language)
            return .refused
        }
        guard let answer = bridge.ask(prompt) else { return .refused }
        guard prompt.isQuestion else {
            if case .secret(let secret) = answer { secret.wipe() }
            return .acknowledged
        }
        switch answer {
        case .secret(let secret):
            defer { secret.wipe() }
            guard let copy = PAMResponses.copy(secret) else {
                failure = uncopyable
                return .refused
            }
            return .answered(copy)
        case .text(let text):
            guard !text.utf8.contains(0), let copy = strdup(text) else {
                failure = uncopyable
                return .refused
            }
            return .answered(copy)
        case .shown:
            failure = sentenceCatalog.sentence("pam.conversation.noAnswer", in: language)
            return .refused
        }
    }

    private var uncopyable: String { sentenceCatalog.sentence("pam.conversation.uncopyable", in: language) }
}

/// The C buffers PAM takes its answers in.
enum PAMResponses {
    /// A `malloc`ed, NUL-terminated copy of `secret` for PAM, which frees it; `nil` when the
    /// secret holds a zero byte (PAM would silently cut it there) or memory is short.
    ///
    /// This is the one copy of the answer outside guarded memory, and it cannot be avoided:
    /// PAM's conversation contract hands modules a plain heap string and lets them free it.
    /// Linux-PAM's own modules overwrite it before freeing (`_pam_drop_reply`).
    static func copy(_ secret: SecretBytes) -> UnsafeMutablePointer<CChar>? {
        secret.withUnsafeBytes { bytes -> UnsafeMutablePointer<CChar>? in
            guard !bytes.contains(0), let buffer = malloc(bytes.count + 1) else { return nil }
            if let source = bytes.baseAddress, bytes.count > 0 { buffer.copyMemory(from: source, byteCount: bytes.count) }
            buffer.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
            return buffer.assumingMemoryBound(to: CChar.self)
        }
    }

    /// Wipes and frees the answers of a conversation that failed part way, then the array.
    static func discard(_ replies: UnsafeMutablePointer<pam_response>?, count: Int) {
        guard let replies else { return }
        for index in 0..<count {
            if let answer = replies[index].resp {
                explicit_bzero(answer, strlen(answer))
                free(answer)
            }
        }
        free(replies)
    }
}
#endif
