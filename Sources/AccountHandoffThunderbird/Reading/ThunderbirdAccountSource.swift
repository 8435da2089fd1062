import AccountHandoff
import Foundation

/// Reads an IMAP account and its saved password from a Thunderbird profile, to send it.
///
/// The settings come from `prefs.js`, the password from `logins.json`, decrypted with the
/// profile's key database straight into guarded memory. Nothing in the profile is written, and
/// Thunderbird may be running meanwhile.
public enum ThunderbirdAccountSource {
    /// The IMAP accounts of `profile`: their addresses and whether each can be transferred.
    ///
    /// - Throws: the ``ThunderbirdProfileError`` that stops reading the profile.
    public static func accounts(in profile: ThunderbirdProfile) async throws(ThunderbirdProfileError) -> [ThunderbirdAccountSummary] {
        let directory = profile.directory
        return try await ProfileWork.lane.run { (_: BlockingIOCancellation) throws(ThunderbirdProfileError) -> [ThunderbirdAccountSummary] in
            let folder = try ProfileFolder.opened(at: directory)
            let state = try ProfileState.read(folder)
            return state.accounts.map { account in
                var problem: UnsupportedAccountReason?
                do throws(ThunderbirdProfileError) { _ = try account.metadata() } catch {
                    if case .unsupportedAccount(_, let reason) = error { problem = reason }
                }
                return ThunderbirdAccountSummary(emailAddress: account.emailAddress, server: "\(account.hostname):\(account.effectivePort)",
                                                 unsupported: problem)
            }
        }
    }

    /// The account of `profile` with the address `emailAddress` (compared without regard to
    /// case), or its only IMAP account when `emailAddress` is `nil`, with its password.
    ///
    /// - Parameter primaryPassword: the profile's primary password, when one protects its
    ///   saved passwords; only read.
    /// - Throws: ``ThunderbirdProfileError/ambiguousAccount(available:)`` and
    ///   ``ThunderbirdProfileError/accountNotFound(emailAddress:available:)`` listing the
    ///   addresses; ``ThunderbirdProfileError/primaryPasswordRequired(path:)``;
    ///   ``ThunderbirdProfileError/noSavedPassword(emailAddress:server:)``; and the errors of
    ///   reading the profile.
    public static func account(in profile: ThunderbirdProfile, emailAddress: String?,
                               primaryPassword: SecretBytes? = nil) async throws(ThunderbirdProfileError) -> ThunderbirdAccount {
        let directory = profile.directory
        return try await ProfileWork.lane.run { (_: BlockingIOCancellation) throws(ThunderbirdProfileError) -> ThunderbirdAccount in
            let folder = try ProfileFolder.opened(at: directory)
            let state = try ProfileState.read(folder)
            guard !state.accounts.isEmpty else { throw .noIMAPAccount(path: folder.path) }
            let addresses = state.accounts.map(\.emailAddress)
            let chosen: MailAccountPreferences
            if let emailAddress {
                guard let found = state.accounts.first(where: { $0.emailAddress.lowercased() == emailAddress.lowercased() }) else {
                    throw .accountNotFound(emailAddress: emailAddress, available: addresses)
                }
                chosen = found
            } else {
                guard state.accounts.count == 1 else { throw .ambiguousAccount(available: addresses) }
                chosen = state.accounts[0]
            }
            let metadata = try chosen.metadata()
            guard let database = try ProfileKeys.openForReading(folder, primaryPassword: primaryPassword) else {
                throw .keyDatabaseMissing(path: folder.path, hasLegacyDatabase: false)
            }
            defer { database.close() }
            let ring = SecretDecoderRing(database: database)
            try state.checkLoginsMatch(ring, profilePath: folder.path)
            let password = try state.password(of: chosen, ring: ring, profilePath: folder.path)
            return ThunderbirdAccount(metadata: metadata, password: password, accountKey: chosen.key)
        }
    }
}

/// An IMAP account read from a profile, with its password in guarded memory.
public struct ThunderbirdAccount: Sendable {
    /// The account in the transfer's format.
    public let metadata: AccountMetadata
    /// The saved password; wipe it when it has been sent.
    public let password: SecretBytes
    /// Its key in the profile's preferences (`account3`).
    public let accountKey: String
}

/// An IMAP account of a profile, for a listing.
public struct ThunderbirdAccountSummary: Hashable, Sendable {
    /// Its e-mail address.
    public let emailAddress: String
    /// Its IMAP server as `HOST:PORT`.
    public let server: String
    /// Why it cannot be transferred; `nil` when it can.
    public let unsupported: UnsupportedAccountReason?
}
