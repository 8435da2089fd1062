import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// Payloads with a chosen rendezvous size, built the way a real sender builds them.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func account() throws -> AccountMetadata {
        try AccountMetadata(linkID: AccountLinkID(uuid: UUID(uuidString: "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162")!),
                            displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
                            imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }

    /// A payload whose rendezvous token has `tokenByteCount` bytes; `fill` picks the byte values
    /// (0xFF bytes give the largest decimal groups).
    static func payload(tokenByteCount: Int, fill: UInt8? = nil, seed: UInt64 = 7) throws -> SessionPayload {
        let random = InsecureDeterministicRandom(seed: seed)
        var token = [UInt8](repeating: fill ?? 0, count: tokenByteCount)
        if fill == nil { token = token.indices.map { UInt8(truncatingIfNeeded: $0 * 37 + 11) } }
        let sender = try HandoffSender.start(account: account(), rendezvous: RendezvousToken(bytes: token),
                                             random: random, now: now)
        return sender.payload
    }

    /// A payload with exactly this rendezvous token.
    static func payload(token: RendezvousToken, seed: UInt64 = 7) throws -> SessionPayload {
        try HandoffSender.start(account: account(), rendezvous: token, random: InsecureDeterministicRandom(seed: seed), now: now).payload
    }
}
