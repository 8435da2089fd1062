#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffDovecot
import Foundation

/// One throwaway Dovecot for the whole test process, with every extra endpoint, started on
/// first use and stopped when the process exits.
enum SharedDovecot {
    /// The IMAP user.
    static let user = "ada"
    /// The user's password on the server: the "new" password a transfer delivers.
    static let password = "Tr0ub4dor&3-imap-never-print-me"

    private static let started: Result<ThrowawayDovecot, any Error> = {
        let result: Result<ThrowawayDovecot, any Error>
        do {
            let secret = try SecretBytes(utf8: password)
            result = .success(try ThrowawayDovecot.start(user: user, password: secret,
                                                         extraEndpoints: Set(ThrowawayDovecot.ExtraEndpoint.allCases)))
        } catch {
            result = .failure(error)
        }
        atexit { SharedDovecot.stopAtExit() }
        return result
    }()

    /// The running server.
    ///
    /// - Throws: ``DovecotRequired`` naming why Dovecot could not start. CI installs it
    ///   (`Scripts/setup.sh`), so these tests fail rather than skip.
    static func server() throws -> ThrowawayDovecot {
        switch started {
        case .success(let server): return server
        case .failure(let reason as DovecotUnavailable): throw DovecotRequired(reason: reason)
        case .failure(let error): throw error
        }
    }

    private static func stopAtExit() {
        if case .success(let server) = started { server.stop() }
    }
}

/// Dovecot is required by the test and could not be started.
struct DovecotRequired: Error, CustomStringConvertible {
    let reason: DovecotUnavailable
    var description: String {
        "This test needs a local Dovecot and none could be started: \(reason) Run Scripts/setup.sh to install dovecot-imapd and openssl."
            + (reason.logExcerpt.map { "\nDovecot log:\n\($0)" } ?? "")
    }
}
