import AccountHandoff
import AccountHandoffImport
import Foundation

/// Imports a transferred account into a Thunderbird profile, as the receiver session's
/// importer (Spec 6.2).
///
/// When the offer arrives, ``prepareImport(of:)`` takes Thunderbird's lock on the profile (so
/// Thunderbird cannot start on it meanwhile, and an import never starts while Thunderbird
/// runs), finishes an interrupted import, reads the profile strictly and finds conflicts with
/// its accounts under the same rules as the reference store (``ConflictDetector``: the same
/// link ID, or the same address on the same server), all before the password travels. When
/// the password arrives, the account is checked with its mail server, then written as one
/// journaled transaction: the account, server and identity preferences in `prefs.js`, the
/// login in `logins.json` encrypted with the profile's key database, and the AccountLinkID in
/// a preference of its own. Any failure, and a kill at any step (undone by the next run),
/// leaves the profile byte for byte as it was.
///
/// All file and NSS work runs on one dedicated thread, never on a Swift concurrency thread.
public final class ThunderbirdImporter: AccountImporter, @unchecked Sendable {
    // Safety of @unchecked Sendable: `primaryPassword` is only touched under `lock`; the rest
    // is immutable.
    /// The profile accounts are imported into.
    public let profile: ThunderbirdProfile
    let validator: any AccountValidator
    let hook: ImportStepHook?
    private let lock = NSLock()
    private var primaryPassword: SecretBytes?

    /// An importer into `profile` that checks each account with `validator` before writing it.
    public convenience init(profile: ThunderbirdProfile, validator: any AccountValidator) {
        self.init(profile: profile, validator: validator, hook: nil)
    }

    /// An importer that calls `hook` at every ``ImportStep`` (tests only).
    package init(profile: ThunderbirdProfile, validator: any AccountValidator, hook: ImportStepHook?) {
        self.profile = profile
        self.validator = validator
        self.hook = hook
    }

    /// Gives the primary password that protects the profile's saved passwords. The importer
    /// keeps it in guarded memory until ``forgetPrimaryPassword()`` (or its release), and
    /// never shows it.
    public func usePrimaryPassword(_ password: SecretBytes) {
        let old = lock.withLock {
            let old = primaryPassword
            primaryPassword = password
            return old
        }
        if let old, old !== password { old.wipe() }
    }

    /// Wipes the primary password given with ``usePrimaryPassword(_:)``.
    public func forgetPrimaryPassword() {
        lock.withLock {
            primaryPassword?.wipe()
            primaryPassword = nil
        }
    }

    /// Checks the profile now, before a transfer starts: takes and releases its lock,
    /// finishes an interrupted import, and reads the profile as an import would.
    ///
    /// - Returns: what the check found.
    /// - Throws: the ``ThunderbirdProfileError`` that would stop an import; the profile is
    ///   left as it was (apart from finishing an interrupted import).
    public func check() async throws(ThunderbirdProfileError) -> ThunderbirdProfileCheck {
        let directory = profile.directory
        let password = currentPrimaryPassword
        return try await ProfileWork.lane.run { (_: BlockingIOCancellation) throws(ThunderbirdProfileError) -> ThunderbirdProfileCheck in
            let session = try ProfileImportSession.open(directory, primaryPassword: password, hook: nil)
            defer { session.close() }
            var check = ThunderbirdProfileCheck(accountAddresses: session.state.accounts.map(\.emailAddress))
            switch session.recovery {
            case .nothing, .leftoversRemoved: break
            case .rolledBack: check.undidInterruptedImport = true
            case .abandoned(let changed): check.filesChangedAfterInterruptedImport = changed
            }
            return check
        }
    }

    /// Prepares the import of `offer` (see the type's description).
    ///
    /// - Throws: ``ImportNotReady/storeUnavailable(reason:)`` with the sentence of the
    ///   ``ThunderbirdProfileError`` that stops it (Thunderbird running, a profile it cannot
    ///   read or write, a server Thunderbird already has for the same user).
    public func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> ThunderbirdPreparedImport {
        do { return try await prepare(offer) } catch { throw .storeUnavailable(reason: error.description) }
    }

    /// ``prepareImport(of:)`` with the profile's own error.
    public func prepare(_ offer: AccountMetadata) async throws(ThunderbirdProfileError) -> ThunderbirdPreparedImport {
        let directory = profile.directory
        let password = currentPrimaryPassword
        let hook = self.hook
        let prepared = try await ProfileWork.lane.run { (_: BlockingIOCancellation) throws(ThunderbirdProfileError) -> PreparedState in
            let session = try ProfileImportSession.open(directory, primaryPassword: password, hook: hook)
            let conflict = ConflictDetector.conflict(for: offer, among: session.state.storedAccounts())
            // Thunderbird keeps one server per user on a host (its account setup refuses a
            // second): such an account is replaced, never kept beside a second copy.
            let sameServer = session.state.accounts.filter {
                $0.hostname.lowercased() == offer.imapHost.lowercased() && $0.userName == offer.username
            }
            let conflicting = Set(conflict?.existing.map(\.account.id.rawValue) ?? [])
            if let other = sameServer.first(where: { !conflicting.contains($0.key) }) {
                session.close()
                throw .serverAlreadyConfigured(emailAddress: other.emailAddress, server: other.hostname)
            }
            return PreparedState(session: SessionBox(session), conflict: conflict, keepBothAllowed: sameServer.isEmpty)
        }
        return ThunderbirdPreparedImport(importer: self, offer: offer, conflict: prepared.conflict, session: prepared.session,
                                         keepBothAllowed: prepared.keepBothAllowed)
    }

    /// Returns once every lock an ended or cancelled import held on the profile is released;
    /// call it before the process exits, so the profile keeps no lock link behind.
    public func waitUntilReleased() async {
        await ProfileWork.lane.run { _ in }
    }

    var currentPrimaryPassword: SecretBytes? { lock.withLock { primaryPassword } }
}

/// What ``ThunderbirdImporter/check()`` found.
public struct ThunderbirdProfileCheck: Hashable, Sendable {
    /// The e-mail addresses of the profile's IMAP accounts.
    public let accountAddresses: [String]
    /// Whether an import that a crash had interrupted was undone.
    public var undidInterruptedImport = false
    /// The files of the profile that changed after an import was interrupted (Thunderbird used
    /// the profile before this check), so the interrupted import was not undone over them.
    public var filesChangedAfterInterruptedImport: [String] = []
}

/// What preparing found, handed from the work thread to the prepared import.
struct PreparedState: Sendable {
    let session: SessionBox
    let conflict: ImportConflict?
    let keepBothAllowed: Bool
}

/// The prepared session, passed between the work thread and its callers; only the work thread
/// uses what it holds.
final class SessionBox: @unchecked Sendable {
    // Safety of @unchecked Sendable: `session` is only used inside ProfileWork lane jobs,
    // which run one at a time.
    let session: ProfileImportSession
    init(_ session: ProfileImportSession) { self.session = session }
}
