/// The text of a self-contained `dovecot.conf`: every path inside the server's temporary
/// directory, no system configuration read (`dovecot -c <file>`).
struct DovecotConfiguration {
    let directory: String
    let instanceName: String
    let startTLSPort: UInt16
    let tlsPort: UInt16
    let extraEndpoints: [ThrowawayDovecot.ExtraEndpoint]
    let internalUser: String
    let loginUser: String
    let internalGroup: String
    /// The uid mail processes run as (Dovecot refuses uids below `first_valid_uid`).
    let mailUID: UInt32
    /// Chroot needs root; an unprivileged server runs its login processes without it.
    let allowChroot: Bool

    var text: String {
        let listen = (["127.0.0.1"] + extraEndpoints.map(\.address)).joined(separator: ", ")
        var lines = [
            "# Throwaway test server written by AccountHandoffDovecot; not a system configuration.",
            "instance_name = \(instanceName)",
            "base_dir = \(directory)/run",
            "state_dir = \(directory)/state",
            "log_path = \(directory)/dovecot.log",
            "info_log_path = \(directory)/dovecot.log",
            "protocols = imap",
            "listen = \(listen)",
            "ssl = required",
            "ssl_cert = <\(directory)/server.crt",
            "ssl_key = <\(directory)/server.key",
            "ssl_min_protocol = TLSv1.2",
            "disable_plaintext_auth = yes",
            "auth_mechanisms = plain login",
            "auth_failure_delay = 0",
            // No growing penalty for the tests' deliberate wrong passwords from loopback.
            "login_trusted_networks = 127.0.0.0/8",
            "passdb {", "  driver = passwd-file", "  args = scheme=SSHA256 \(directory)/users", "}",
            "userdb {", "  driver = passwd-file", "  args = \(directory)/users", "}",
            "mail_location = maildir:~/Maildir",
            "first_valid_uid = \(mailUID)",
            "default_internal_user = \(internalUser)",
            "default_login_user = \(loginUser)",
            "default_internal_group = \(internalGroup)",
            "service imap-login {",
            "  inet_listener imap {", "    port = \(startTLSPort)", "  }",
            "  inet_listener imaps {", "    port = \(tlsPort)", "    ssl = yes", "  }",
        ]
        if !allowChroot { lines.append("  chroot =") }
        lines.append("}")
        // Auth penalties delay every login from an IP after a failure (the tests fail on
        // purpose, from 127.0.0.1); an unusable penalty socket turns them off.
        lines += ["service anvil {", "  unix_listener anvil-auth-penalty {", "    mode = 0", "  }"]
        if !allowChroot { lines.append("  chroot =") }
        lines.append("}")
        for endpoint in extraEndpoints {
            lines.append("local \(endpoint.address) {")
            switch endpoint {
            case .untrustedCertificate, .wrongHostName:
                lines += ["  ssl_cert = <\(directory)/\(endpoint.rawValue).crt", "  ssl_key = <\(directory)/\(endpoint.rawValue).key"]
            case .withoutTLS:
                lines += ["  ssl = no", "  disable_plaintext_auth = no"]
            }
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
