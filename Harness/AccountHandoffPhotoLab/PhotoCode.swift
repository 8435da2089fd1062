import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// A transfer code of the experiment and how `handoff qr --png` draws it. The codes come from
/// seeded senders at a fixed time, so every run draws the same pictures.
package struct PhotoCode: Sendable {
    package let label: String
    package let text: String
    /// `--scale`: pixels per module.
    package let scale: Int
    /// `--ecc`: L, M, Q or H.
    package let errorCorrection: String

    /// Four codes: the rendezvous of the CLI on 127.0.0.1 (3 bytes), a LAN address (7), a relay
    /// (25) and the longest token (32), at 8, 6, 8 and 5 pixels per module and levels M, M, L, H.
    package static func all() throws -> [PhotoCode] {
        try [(1, 3, 8, "M"), (2, 7, 6, "M"), (3, 25, 8, "L"), (4, 32, 5, "H")].map { seed, tokenByteCount, scale, level in
            PhotoCode(label: "\(tokenByteCount)-byte token, \(scale) px/module, level \(level)",
                      text: try payload(seed: UInt64(seed), tokenByteCount: tokenByteCount).text, scale: scale, errorCorrection: level)
        }
    }

    /// A transfer code as a real sender builds it, from a seeded sender at a fixed time (the
    /// tests' pictures use it too).
    package static func payload(seed: UInt64, tokenByteCount: Int) throws -> SessionPayload {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID(uuidString: "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162")!),
                                          displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
                                          imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let token = try RendezvousToken(bytes: (0..<tokenByteCount).map { UInt8(truncatingIfNeeded: Int(seed) * 41 + $0 * 37 + 11) })
        let sender = try HandoffSender.start(account: account, rendezvous: token, random: InsecureDeterministicRandom(seed: seed),
                                             now: Date(timeIntervalSince1970: 1_800_000_000))
        return sender.payload
    }
}
