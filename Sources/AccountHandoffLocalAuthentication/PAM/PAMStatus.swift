#if canImport(CPAM) && canImport(Glibc)
import CPAM

/// Secret-free sentences for the PAM status codes that make an authentication unavailable.
enum PAMStatus {
    /// Why `service` could not authenticate `user`: a whole sentence naming the status.
    static func unavailableDetail(_ status: Int32, service: String, user: String) -> String {
        "The PAM service \"\(service)\" could not authenticate \(user): \(meaning(status, user: user)) (\(name(status)))."
    }

    /// What `status` means, as a clause.
    static func meaning(_ status: Int32, user: String) -> String {
        switch status {
        case PAM_USER_UNKNOWN: "it does not know the user \(user)"
        case PAM_AUTHINFO_UNAVAIL: "it cannot read the user's authentication information"
        case PAM_CRED_INSUFFICIENT: "this app lacks the rights to check the password"
        case PAM_MODULE_UNKNOWN, PAM_OPEN_ERR, PAM_SYMBOL_ERR: "one of its modules is missing or cannot be loaded"
        case PAM_SERVICE_ERR: "one of its modules failed"
        case PAM_SYSTEM_ERR: "a system error occurred"
        case PAM_ABORT: "PAM stopped with a critical error (is the service configured?)"
        case PAM_BUF_ERR: "memory ran out"
        case PAM_CONV_ERR: "the conversation with the person failed"
        default: "PAM reported an error"
        }
    }

    /// The C name of `status`, for logs and support; the number for codes not listed.
    static func name(_ status: Int32) -> String {
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
        default: "PAM status \(status)"
        }
    }
}
#endif
