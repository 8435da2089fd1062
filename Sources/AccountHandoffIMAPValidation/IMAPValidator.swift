import AccountHandoff
import AccountHandoffImport
import Foundation

/// Validates an account by logging in to its IMAP server and logging out, with libcurl.
///
/// - Implicit TLS (`imaps://`) when the metadata says ``AccountHandoff/IMAPSecurity/tls``;
///   STARTTLS with `CURLUSESSL_ALL` for ``AccountHandoff/IMAPSecurity/startTLS``, so a server
///   without STARTTLS gets no password unless ``IMAPValidatorConfiguration/plaintext`` allows it.
/// - Certificate chain and host name are always verified (TLS 1.2 or later).
/// - Only the IMAP and IMAPS protocols are enabled; no response text is kept.
///
/// Failures map to ``AccountHandoffImport/ValidationFailure``: wrong password
/// (`authenticationFailed`), untrusted certificate, host-name mismatch, host not found,
/// server unreachable, timeout, TLS unavailable, TLS handshake failure.
///
/// Copies of the password: a NUL-terminated guarded copy exists only during
/// `curl_easy_setopt(CURLOPT_PASSWORD)` and is wiped at once; libcurl keeps its own heap
/// copies (the option, the connection's copy, the SASL message and its base64 form), zeroed
/// on free by the allocator this module installs when it is the first to initialise libcurl;
/// the TLS library's record buffers hold the encrypted login command's plaintext briefly and
/// are not wiped by this code.
public struct IMAPValidator: AccountValidator {
    /// How the validator connects.
    public let configuration: IMAPValidatorConfiguration

    /// A validator with `configuration`.
    public init(configuration: IMAPValidatorConfiguration = IMAPValidatorConfiguration()) {
        self.configuration = configuration
    }

    /// Checks that the configured certificate authority file exists and holds PEM
    /// certificates, so a broken `--ca-file` is found before the password travels.
    public func checkReady() throws(ValidationFailure) {
        if case .certificateAuthorityFile(let url) = configuration.trust { try CertificateAuthorityFile.check(url, in: configuration.language) }
    }

    /// Logs in to `account`'s server with `credential` and logs out. The blocking libcurl
    /// transfer runs on the ``AccountHandoff/BlockingIOPool``; cancelling the task aborts it at
    /// once, in any state of the login (``AccountHandoffImport/ValidationFailure/cancelled``).
    public func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult {
        let configuration = self.configuration
        return await BlockingIOPool.shared.run { cancellation in
            CurlLogin(account: account, configuration: configuration, cancellation: cancellation).run(credential)
        }
    }
}
