import AccountHandoffImport
import CCurl

/// Translates libcurl's result into a ``ValidationResult``.
enum CurlFailureMapping {
    /// - Parameter verificationResult: `CURLINFO_SSL_VERIFYRESULT`. With the OpenSSL family
    ///   it is the `X509_V_ERR_*` of a chain that failed to verify; libcurl leaves it at 0 or
    ///   its initial 1 when the chain verified and only its own host-name check failed.
    /// - Parameter greeting: what the server's first line was. A server whose first line was
    ///   no IMAP greeting, or that closed the connection before any line, is no IMAP server,
    ///   whatever libcurl made of it (`CURLE_RECV_ERROR`, `CURLE_GOT_NOTHING`,
    ///   `CURLE_WEIRD_SERVER_REPLY`, a timeout waiting for the rest).
    static func result(for code: CURLcode, verificationResult: Int, greeting: ServerGreeting.Kind = .none) -> ValidationResult {
        switch (code, greeting) {
        case (CURLE_OK, _), (_, .imap): break
        case (_, .other): return .failed(.notIMAPServer)
        case (CURLE_RECV_ERROR, .none), (CURLE_GOT_NOTHING, .none), (CURLE_WEIRD_SERVER_REPLY, .none): return .failed(.notIMAPServer)
        default: break
        }
        switch code {
        case CURLE_OK: return .valid
        case CURLE_LOGIN_DENIED: return .failed(.authenticationFailed)
        case CURLE_PEER_FAILED_VERIFICATION:
            return .failed(verificationResult > 1 ? .untrustedCertificate(verificationCode: verificationResult) : .hostNameMismatch)
        case CURLE_COULDNT_RESOLVE_HOST: return .failed(.hostNotFound)
        case CURLE_COULDNT_CONNECT: return .failed(.serverUnreachable)
        case CURLE_OPERATION_TIMEDOUT: return .failed(.timedOut)
        case CURLE_USE_SSL_FAILED: return .failed(.tlsUnavailable)
        case CURLE_SSL_CONNECT_ERROR: return .failed(.tlsHandshakeFailed)
        default: return .failed(.otherFailure(code: Int32(bitPattern: code.rawValue)))
        }
    }
}
