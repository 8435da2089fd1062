import AccountHandoff

/// The libcurl URL for an account's IMAP server. The host must be a DNS name or an IP
/// literal, so nothing in it can change the URL's meaning (no `/`, `@`, `?`, `#`, `%`).
enum IMAPServerURL {
    /// `imaps://host:port/` for implicit TLS, `imap://host:port/` for STARTTLS; `nil` for an
    /// unacceptable host.
    static func make(for account: AccountMetadata) -> String? {
        guard let host = hostPart(account.imapHost) else { return nil }
        let scheme = account.imapSecurity == .tls ? "imaps" : "imap"
        return "\(scheme)://\(host):\(account.imapPort)/"
    }

    /// The host as it goes into the URL: a DNS name or IPv4 literal as is, an IPv6 literal in brackets.
    static func hostPart(_ host: String) -> String? {
        if isDNSNameOrIPv4(host) { return host }
        if isIPv6Literal(host) { return "[\(host)]" }
        return nil
    }

    private static func isDNSNameOrIPv4(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            return label.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
                default: false
                }
            }
        }
    }

    private static func isIPv6Literal(_ host: String) -> Bool {
        guard host.contains(":"), host.utf8.count <= 45 else { return false }
        return host.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "0"..."9", "a"..."f", "A"..."F", ":", ".": true
            default: false
            }
        }
    }
}
