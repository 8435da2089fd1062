#if canImport(CPAM) && canImport(Glibc)
import AccountHandoff

/// How ``PAMAuthenticator`` authenticates: which PAM service, and how many tries.
public struct PAMAuthenticatorConfiguration: Hashable, Sendable {
    /// `"handoff"`: the app's own PAM service, so an administrator can configure the transfer
    /// gate alone (for example require a fingerprint, or a lockout after failures) and the
    /// system log names it.
    ///
    /// Without a file `/etc/pam.d/handoff`, Linux-PAM uses `/etc/pam.d/other`. On Debian 12
    /// that file includes `common-auth`, `common-account`, `common-password` and
    /// `common-session`: the system's default authentication, which is `pam_unix` (the
    /// user's login password, checked through the `unix_chkpwd` helper, so an ordinary user
    /// can prove their own password) plus whatever `pam-auth-update` enabled, such as a
    /// fingerprint reader. Distributions whose `other` denies everything (Fedora and RHEL use
    /// `pam_deny`) need a `/etc/pam.d/handoff`, for example `auth include system-auth` and
    /// `account include system-auth`; until then the authenticator reports
    /// ``AccountHandoff/LocalAuthenticationFailure/unavailable(detail:)``.
    public static let defaultServiceName = "handoff"

    /// The PAM service name: the file in `/etc/pam.d` that lists the modules.
    public let serviceName: String
    /// How many answers the person may give before the authentication fails as
    /// ``AccountHandoff/LocalAuthenticationFailure/notRecognized``; at least 1.
    public let maximumTries: Int
    /// The language of what the authenticator says itself: the message between tries and the
    /// details of ``AccountHandoff/LocalAuthenticationFailure/unavailable(detail:)``. PAM's
    /// own prompts come in the system's language.
    public let language: HandoffLanguage

    /// A configuration; by default the service ``defaultServiceName`` and 3 tries, as `login`
    /// and `sudo` allow, in the process's language.
    ///
    /// - Parameters:
    ///   - serviceName: a PAM service name: not empty, no `/`, no NUL.
    ///   - maximumTries: at least 1.
    ///   - language: the language of the authenticator's own sentences; by default
    ///     ``AccountHandoff/HandoffLanguage/current``.
    /// - Precondition: the arguments are valid (a wrong one is a programming error).
    public init(serviceName: String = PAMAuthenticatorConfiguration.defaultServiceName, maximumTries: Int = 3,
                language: HandoffLanguage = .current) {
        precondition(Self.isValidServiceName(serviceName),
                     "A PAM service name is a file name in /etc/pam.d: not empty, without '/' or NUL.")
        precondition(maximumTries >= 1, "At least one try is needed to authenticate.")
        self.serviceName = serviceName
        self.maximumTries = maximumTries
        self.language = language
    }

    /// Whether `name` can name a PAM service: not empty, no `/`, no NUL, not `.` or `..`.
    public static func isValidServiceName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.utf8.contains(0) && name != "." && name != ".."
    }
}
#endif
