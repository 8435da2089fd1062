import AccountHandoff
import AccountHandoffImport
import CCurl

/// One blocking IMAP login and logout through a libcurl easy handle.
///
/// libcurl connects (implicit TLS, or STARTTLS with `CURLUSESSL_ALL`), verifies the
/// certificate chain and host name, reads the greeting and capabilities, authenticates,
/// sends `NOOP`, and — the handle being closed right after the transfer — `LOGOUT`.
///
/// Where the password is, in order:
/// 1. the caller's ``AccountHandoff/SecretBytes`` (guarded memory);
/// 2. a NUL-terminated guarded copy, because `CURLOPT_PASSWORD` takes a C string; it is
///    wiped right after `curl_easy_setopt` returns, which is when libcurl has copied it;
/// 3. libcurl's own heap copies: the option string, the connection's copy, and the SASL
///    PLAIN (or LOGIN) message with its base64 encoding. ``CurlRuntime`` zeroes each when
///    libcurl frees it (if its allocator is installed); the option copy is freed by resetting
///    `CURLOPT_PASSWORD` right after the transfer;
/// 4. the TLS library's record buffers while the authentication command is encrypted
///    (OpenSSL's own allocations, outside libcurl's allocator; not wiped by this code).
struct CurlLogin {
    let account: AccountMetadata
    let configuration: IMAPValidatorConfiguration
    let cancellation: BlockingIOCancellation

    func run(_ credential: SecretBytes) -> ValidationResult {
        guard let url = IMAPServerURL.make(for: account) else { return .failed(.unsupportedHost) }
        let unsupported = credential.count == 0 || credential.withUnsafeBytes { $0.contains(0) }
        guard !unsupported else { return .failed(.unsupportedCredential) }
        guard CurlRuntime.isReady else { return .failed(.otherFailure(code: Int32(bitPattern: CurlRuntime.initialisation.rawValue))) }
        guard !cancellation.isCancelled else { return .failed(.cancelled) }
        guard let handle = curl_easy_init() else { return .failed(.otherFailure(code: Int32(bitPattern: CURLE_FAILED_INIT.rawValue))) }
        defer { curl_easy_cleanup(handle) }

        if let failure = configure(handle, url: url) { return .failed(failure) }
        if let failure = setPassword(handle, credential) { return .failed(failure) }
        let code = withExtendedLifetime(cancellation) {
            BlockingCall.run("curl_easy_perform") { curl_easy_perform(handle) }
        }
        // Frees libcurl's copy of the option at once (wiped by CurlRuntime's allocator).
        _ = accounthandoff_curl_set_string(handle, CURLOPT_PASSWORD, nil)
        var verification = 0
        _ = accounthandoff_curl_get_long(handle, CURLINFO_SSL_VERIFYRESULT, &verification)
        return CurlFailureMapping.result(for: code, verificationResult: verification)
    }

    private func configure(_ handle: UnsafeMutableRawPointer, url: String) -> ValidationFailure? {
        let useSSL: curl_usessl
        switch (account.imapSecurity, configuration.plaintext) {
        case (.tls, _): useSSL = CURLUSESSL_ALL
        case (.startTLS, .refuse): useSSL = CURLUSESSL_ALL
        case (.startTLS, .allowWhenServerOffersNoTLS): useSSL = CURLUSESSL_TRY
        }
        let context = Unmanaged.passUnretained(cancellation).toOpaque()
        var results: [CURLcode] = [
            accounthandoff_curl_allow_only_imap(handle),
            accounthandoff_curl_set_string(handle, CURLOPT_URL, url),
            accounthandoff_curl_set_string(handle, CURLOPT_USERNAME, account.username),
            accounthandoff_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, "NOOP"),
            accounthandoff_curl_set_long(handle, CURLOPT_USE_SSL, Int(useSSL.rawValue)),
            accounthandoff_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            accounthandoff_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            accounthandoff_curl_set_long(handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)),
            accounthandoff_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.curlMilliseconds),
            accounthandoff_curl_set_long(handle, CURLOPT_TIMEOUT_MS, configuration.totalTimeout.curlMilliseconds),
            accounthandoff_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            accounthandoff_curl_set_long(handle, CURLOPT_FORBID_REUSE, 1),
            accounthandoff_curl_set_long(handle, CURLOPT_VERBOSE, 0),
            accounthandoff_curl_set_write(handle, discardResponse),
            accounthandoff_curl_set_long(handle, CURLOPT_NOPROGRESS, 0),
            accounthandoff_curl_set_xferinfo(handle, abortWhenCancelled),
            accounthandoff_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context),
        ]
        if case .certificateAuthorityFile(let file) = configuration.trust {
            results.append(accounthandoff_curl_set_string(handle, CURLOPT_CAINFO, file.path))
            // Only the given authorities: no system CA directory next to the file.
            results.append(accounthandoff_curl_set_string(handle, CURLOPT_CAPATH, nil))
        }
        guard let failed = results.first(where: { $0 != CURLE_OK }) else { return nil }
        return .otherFailure(code: Int32(bitPattern: failed.rawValue))
    }

    private func setPassword(_ handle: UnsafeMutableRawPointer, _ credential: SecretBytes) -> ValidationFailure? {
        let terminated: SecretBytes
        do { terminated = try GuardedCopy.nulTerminated(credential) } catch {
            return .otherFailure(code: Int32(bitPattern: CURLE_OUT_OF_MEMORY.rawValue))
        }
        defer { terminated.wipe() }
        let status = terminated.withUnsafeBytes { bytes in
            accounthandoff_curl_set_string(handle, CURLOPT_PASSWORD, bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        return status == CURLE_OK ? nil : .otherFailure(code: Int32(bitPattern: status.rawValue))
    }
}

/// The IMAP response text is not needed: the result code says everything.
private func discardResponse(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    size * count
}

/// Called by libcurl at least once a second; a non-zero result aborts the transfer.
private func abortWhenCancelled(_ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                                _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<BlockingIOCancellation>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
}
