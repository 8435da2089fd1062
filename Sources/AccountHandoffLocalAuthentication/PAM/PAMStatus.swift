#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff
import CPAM

/// Secret-free sentences for the PAM status codes that make an authentication unavailable.
enum PAMStatus {
    /// Why `service` could not authenticate `user`: a whole sentence naming the status.
    static func unavailableDetail(_ status: Int32, service: String, user: String, in language: HandoffLanguage) -> String {
        sentenceCatalog.sentence("pam.unavailable", .text(service), .text(user), .text(meaning(status, user: user, in: language)),
                                 .text(name(status, in: language)), in: language)
    }

    /// What `status` means, as a clause.
    static func meaning(_ status: Int32, user: String, in language: HandoffLanguage) -> String {
        switch status {
        case PAM_USER_UNKNOWN: sentenceCatalog.sentence("pam.meaning.userUnknown", .text(user), in: language)
        case PAM_AUTHINFO_UNAVAIL: sentenceCatalog.sentence("pam.meaning.authinfoUnavailable", in: language)
        case PAM_CRED_INSUFFICIENT: sentenceCatalog.sentence("pam.meaning.credentialsInsufficient", in: language)
        case PAM_MODULE_UNKNOWN, PAM_OPEN_ERR, PAM_SYMBOL_ERR: sentenceCatalog.sentence("pam.meaning.moduleMissing", in: language)
        case PAM_SERVICE_ERR: sentenceCatalog.sentence("pam.meaning.moduleFailed", in: language)
        case PAM_SYSTEM_ERR: sentenceCatalog.sentence("pam.meaning.systemError", in: language)
        case PAM_ABORT: sentenceCatalog.sentence("pam.meaning.abort", in: language)
        case PAM_BUF_ERR: sentenceCatalog.sentence("pam.meaning.bufferError", in: language)
        case PAM_CONV_ERR: sentenceCatalog.sentence("pam.meaning.conversationError", in: language)
        default: sentenceCatalog.sentence("pam.meaning.other", in: language)
        }
    }

    /// The C name of `status`, for logs and support; the number for codes not listed.
    static func name(_ status: Int32, in language: HandoffLanguage) -> String {
        switch status {
        case PAM_SUCCESS: "PAM_SUCCESS"
        case PAM_OPEN_ERR: "PAM_OPEN_ERR"
        case PAM_SYMBOL_ERR: "PAM_SYMBOL_ERR"
        case PAM_SERVICE_ERR: "PAM_SERVICE_ERR"
        case PAM_SYSTEM_ERR: "PAM_SYSTEM_ERR"
        case PAM_BUF_ERR: "PAM_BUF_ERR"
        case PAM_PERM_DENIED: "PAM_PERM_DENIED"
        case PAM_AUTH_ERR: "PAM_AUTH_ERR"
        case PAM_CRED_INSUFFICIENT: "PAM_CRED_INSUFFICIENT"
        case PAM_AUTHINFO_UNAVAIL: "PAM_AUTHINFO_UNAVAIL"
        case PAM_USER_UNKNOWN: "PAM_USER_UNKNOWN"
        case PAM_MAXTRIES: "PAM_MAXTRIES"
        case PAM_NEW_AUTHTOK_REQD: "PAM_NEW_AUTHTOK_REQD"
        case PAM_ACCT_EXPIRED: "PAM_ACCT_EXPIRED"
        case PAM_CONV_ERR: "PAM_CONV_ERR"
        case PAM_ABORT: "PAM_ABORT"
        case PAM_MODULE_UNKNOWN: "PAM_MODULE_UNKNOWN"
        default: sentenceCatalog.sentence("pam.status.number", .number(status), in: language)
        }
    }
}
#endif
