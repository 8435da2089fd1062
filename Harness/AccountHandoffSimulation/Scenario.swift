import AccountHandoff
import Foundation

/// The fixed inputs of a simulated transfer: the account, its password (a marker that leak
/// scans search for), the seeds of every device's randomness and the start time.
///
/// Test support only: the seeds feed `InsecureDeterministicRandom`, so every key is known.
public struct Scenario: Sendable {
    /// A password no output may ever contain; long and distinctive so a scan cannot miss it.
    public static let markerPassword = "LEAK-MARKER-pw-7f3a9c51e2-do-not-print"

    /// The account the sender offers.
    public let account: AccountMetadata
    /// The password the sender's app provides.
    public let password: String
    /// Seed of the sender's randomness (it draws the nonce, then its private key).
    public let senderSeed: UInt64
    /// Seed of the honest receiver's randomness.
    public let receiverSeed: UInt64
    /// Seed of the shoulder-surfing attacker's (or second device's) randomness.
    public let attackerSeed: UInt64
    /// When the sender starts the session.
    public let start: Date
    /// The rendezvous token printed in the QR.
    public let rendezvous: RendezvousToken
    /// Whether this value is ``standard`` itself, so per-input checks need not compare accounts.
    private(set) var isStandardValue = false

    /// A scenario; the defaults are the standard one used by tests, fuzz seeds and schedules.
    public init(account: AccountMetadata = Scenario.standardAccount, password: String = Scenario.markerPassword,
                senderSeed: UInt64 = 0x5e4d, receiverSeed: UInt64 = 0x7ec1, attackerSeed: UInt64 = 0xbad,
                start: Date = Date(timeIntervalSince1970: 1_800_000_000),
                rendezvous: RendezvousToken = Scenario.standardRendezvous) {
        self.account = account
        self.password = password
        self.senderSeed = senderSeed
        self.receiverSeed = receiverSeed
        self.attackerSeed = attackerSeed
        self.start = start
        self.rendezvous = rendezvous
    }

    private init(standard: Void) {
        self.init()
        isStandardValue = true
    }

    /// The standard scenario.
    public static let standard = Scenario(standard: ())

    /// The account every standard scenario transfers.
    public static let standardAccount = try! AccountMetadata(
        linkID: AccountLinkID(bytes: Array(0xa0...0xaf))!, displayName: "Ada Lovelace (work)",
        emailAddress: "ada@example.org", username: "ada.lovelace", imapHost: "imap.example.org",
        imapPort: 993, imapSecurity: .tls)

    /// A loopback-style rendezvous hint.
    public static let standardRendezvous = try! RendezvousToken(bytes: [127, 0, 0, 1, 0x1f, 0x90, 0xc0, 0xde])

    /// The password as UTF-8 bytes.
    public var passwordBytes: [UInt8] { Array(password.utf8) }
}
