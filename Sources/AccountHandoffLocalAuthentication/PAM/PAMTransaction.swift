#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff
import CPAM
import Glibc

/// One authentication, run to its end on the PAM thread: `pam_start`, up to the maximum
/// number of `pam_authenticate` tries, `pam_acct_mgmt`, `pam_end`. Every C call blocks, which
/// is why none of this runs on a Swift concurrency thread.
struct PAMTransaction {
    /// The PAM service (file in /etc/pam.d) to authenticate with.
    let serviceName: String
    /// How many passwords the person may try.
    let maximumTries: Int
    /// The user to authenticate: the process's real user ID.
    let userID: uid_t
    /// The language of the sentences it says itself.
    let language: HandoffLanguage
    /// The conversation the C callback answers from.
    let context: PAMConversationContext

    /// What the person is told between tries, through the conversation, with the tries left.
    static func tryAgain(triesLeft: Int, in language: HandoffLanguage) -> String {
        triesLeft == 1
            ? sentenceCatalog.sentence("pam.tryAgain.one", in: language)
            : sentenceCatalog.sentence("pam.tryAgain.several", .number(triesLeft), in: language)
    }

    /// Runs the transaction; the result, as the authenticator returns it.
    func run() -> LocalAuthenticationResult {
        guard let user = UserAccount.name(of: userID) else {
            return .failed(.unavailable(detail: sentenceCatalog.sentence("pam.noUserName", .number(userID), in: language)))
        }
        guard !context.bridge.isCancelled else { return .cancelled }
        var conversation = pam_conv(conv: pamConversationCallback, appdata_ptr: Unmanaged.passUnretained(context).toOpaque())
        var handle: OpaquePointer?
        // Linux-PAM copies the conversation structure, so a pointer for this call suffices.
        let started = pam_start(serviceName, user, &conversation, &handle)
        guard started == PAM_SUCCESS, let handle else {
            return .failed(.unavailable(detail: PAMStatus.unavailableDetail(started, service: serviceName, user: user, in: language)))
        }
        let (result, lastStatus) = authenticate(handle, user: user)
        pam_end(handle, lastStatus)
        return result
    }

    /// The tries and the account check; also the last PAM status, for `pam_end`.
    private func authenticate(_ handle: OpaquePointer, user: String) -> (LocalAuthenticationResult, Int32) {
        let bridge = context.bridge
        for attempt in 1...maximumTries {
            let questionsBefore = bridge.questionsAsked
            let status = pam_authenticate(handle, Int32(PAM_DISALLOW_NULL_AUTHTOK))
            if let ended = interruption() { return (ended, status) }
            switch status {
            case PAM_SUCCESS:
                return checkAccount(handle, user: user)
            case PAM_AUTH_ERR:
                guard bridge.questionsAsked > questionsBefore else {
                    // A service that denies everyone (pam_deny, as other distributions' "other"
                    // does) or a lock that refuses before asking: not a wrong password.
                    let detail = sentenceCatalog.sentence("pam.refusedWithoutAsking", .text(serviceName), .text(user), in: language)
                    return (.failed(.unavailable(detail: detail)), status)
                }
                if attempt < maximumTries, bridge.ask(.error(Self.tryAgain(triesLeft: maximumTries - attempt, in: language))) == nil { return (.cancelled, status) }
            case PAM_MAXTRIES:
                return (.failed(.lockedOut), status)
            default:
                return (.failed(.unavailable(detail: PAMStatus.unavailableDetail(status, service: serviceName, user: user, in: language))), status)
            }
        }
        return (.failed(.notRecognized), PAM_AUTH_ERR)
    }

    /// `pam_acct_mgmt` once the password was right: an expired or refused account is locked out.
    private func checkAccount(_ handle: OpaquePointer, user: String) -> (LocalAuthenticationResult, Int32) {
        let status = pam_acct_mgmt(handle, Int32(PAM_DISALLOW_NULL_AUTHTOK))
        if let ended = interruption() { return (ended, status) }
        switch status {
        case PAM_SUCCESS:
            return (.authenticated, status)
        case PAM_ACCT_EXPIRED, PAM_PERM_DENIED:
            return (.failed(.lockedOut), status)
        case PAM_NEW_AUTHTOK_REQD:
            let detail = sentenceCatalog.sentence("pam.passwordExpired", .text(user), in: language)
            return (.failed(.unavailable(detail: detail)), status)
        default:
            return (.failed(.unavailable(detail: PAMStatus.unavailableDetail(status, service: serviceName, user: user, in: language))), status)
        }
    }

    /// The result when a PAM call was interrupted: by a cancel (whatever status the module made
    /// of the failed conversation), or by an answer the conversation could not pass on.
    private func interruption() -> LocalAuthenticationResult? {
        if context.bridge.isCancelled { return .cancelled }
        if let failure = context.failure { return .failed(.unavailable(detail: failure)) }
        return nil
    }
}
#endif
