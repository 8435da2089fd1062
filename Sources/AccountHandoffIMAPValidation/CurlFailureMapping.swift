import AccountHandoffImport
import CCurl

/// Translates libcurl's result into a ``ValidationResult``.
enum CurlFailureMapping {
    /// - Parameter verificationResult: `CURLINFO_SSL_VERIFYRESULT`. With the OpenSSL family
    ///   it is the `X509_V_ERR_*` of a chain that failed to verify; libcurl leaves it at 0 or
    ///   its initial 1 when the chain verified and only its own host-name check failed.
    static func result(for code: CURLcode, verificationResult: Int) -> ValidationResult {
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
