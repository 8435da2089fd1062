import AccountHandoff
import Foundation

/// One complete transfer between two devices, in memory, through both state machines: the
/// sender starts, the receiver decodes the QR text and scans it, both people confirm, the
/// credential is imported and the receipt comes back. It is what `handoff-dev bench` times as "the
/// full session", and what ``SessionFloor`` mirrors call for call.
package struct ReferenceSession: Sendable {
    /// What a run put on the wire.
    package struct Wire: Hashable, Sendable {
        /// Frames sent, both directions.
        package var frames = 0
        /// Their bytes, headers included.
        package var bytes = 0
        /// The frames themselves, in order, when the run was asked to keep them.
        package var kept: [[UInt8]] = []
    }

    /// Why a run did not complete.
    package enum Failure: Error, Equatable {
        /// A state machine refused an event.
        case refused(HandoffError)
        /// A step did not produce what a completed session produces next (`step` names it).
        case unexpected(step: String)
    }

    package let account: AccountMetadata
    package let rendezvous: RendezvousToken
    package let password: String

    /// A transfer of `account`, announcing `rendezvous` in the QR and carrying `password`.
    package init(account: AccountMetadata, rendezvous: RendezvousToken, password: String) {
        self.account = account
        self.rendezvous = rendezvous
        self.password = password
    }

    /// The account, rendezvous and password `handoff-dev bench` uses: a typical account whose offer
    /// fills one 256-byte block, a 10-byte rendezvous (the CLI's port and tag).
    package static let typical = ReferenceSession(
        account: try! AccountMetadata(
            linkID: AccountLinkID(uuid: UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")!),
            displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
            imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls),
        rendezvous: try! RendezvousToken(bytes: [0x1f, 0x90, 1, 2, 3, 4, 5, 6, 7, 8]),
        password: "correct-horse-battery-staple-9f27")

    /// Runs one session to `completed.imported` on both sides, every step at `now`.
    package func run(random: RandomSource, now: Date, keepingFrames: Bool = false) throws(Failure) -> Wire {
        try complete(try start(random: random, now: now), random: random, now: now, keepingFrames: keepingFrames)
    }

    /// The sender's first step: a session waiting for its receiver (a pending sender).
    package func start(random: RandomSource, now: Date) throws(Failure) -> HandoffSender {
        do {
            return try HandoffSender.start(account: account, rendezvous: rendezvous, random: random, now: now)
        } catch {
            throw .refused(error)
        }
    }

    /// The rest of the session of a sender from ``start(random:now:)``: a receiver scans its QR
    /// text and both sides run to `completed.imported`.
    package func complete(_ sender: HandoffSender, random: RandomSource, now: Date,
                          keepingFrames: Bool = false) throws(Failure) -> Wire {
        var wire = Wire()
        do {
            try completeSteps(sender, random: random, now: now, keepingFrames: keepingFrames, wire: &wire)
        } catch let error as Failure {
            throw error
        } catch let error as HandoffError {
            throw .refused(error)
        } catch {
            throw .unexpected(step: "\(error)")
        }
        return wire
    }

    private func completeSteps(_ sender: HandoffSender, random: RandomSource, now: Date, keepingFrames keep: Bool,
                               wire: inout Wire) throws {
        let scanned = try SessionPayload(text: sender.payload.text)
        let (receiver, hello) = try HandoffReceiver.scan(payload: scanned, random: random, now: now)
        let reveal = try sender.handle(.frameReceived(frame(hello.actions, "hello", &wire, keep)), now: now)
        let code = try receiver.handle(.frameReceived(frame(reveal.actions, "reveal", &wire, keep)), now: now)
        guard case .showShortCode(let shown)? = code.actions.first, shown == sender.shortCode else {
            throw Failure.unexpected(step: "short code")
        }
        let offer = try sender.handle(.codeEntered(shown.digits), now: now)
        _ = try receiver.handle(.frameReceived(frame(offer.actions, "offer", &wire, keep)), now: now)
        let accept = try receiver.handle(.accept, now: now)
        _ = try sender.handle(.frameReceived(frame(accept.actions, "accept", &wire, keep)), now: now)
        // The password in guarded memory of its own, as an app's credential reader returns it (Spec 8.5).
        var text = self.password
        let password = try text.withUTF8 { try sender.credential(copying: UnsafeRawBufferPointer($0)) }
        let credential = try sender.handle(.credentialProvided(password), now: now)
        let delivered = try receiver.handle(.frameReceived(frame(credential.actions, "credential", &wire, keep)), now: now)
        guard case .deliverAccount(let imported)? = delivered.actions.first else { throw Failure.unexpected(step: "delivery") }
        imported.credential.wipe()
        let receipt = try receiver.handle(.importFinished(.imported), now: now)
        let end = try sender.handle(.frameReceived(frame(receipt.actions, "receipt", &wire, keep)), now: now)
        guard sender.outcome == .completed(.imported), receiver.outcome == .completed(.imported),
              case .finished? = end.actions.last else { throw Failure.unexpected(step: "completion") }
    }

    private func frame(_ actions: [SenderAction], _ step: String, _ wire: inout Wire, _ keep: Bool) throws(Failure) -> [UInt8] {
        for case .send(let bytes) in actions { return counted(bytes, &wire, keep) }
        throw .unexpected(step: step)
    }

    private func frame(_ actions: [ReceiverAction], _ step: String, _ wire: inout Wire, _ keep: Bool) throws(Failure) -> [UInt8] {
        for case .send(let bytes) in actions { return counted(bytes, &wire, keep) }
        throw .unexpected(step: step)
    }

    private func counted(_ bytes: [UInt8], _ wire: inout Wire, _ keep: Bool) -> [UInt8] {
        wire.frames += 1
        wire.bytes += bytes.count
        if keep { wire.kept.append(bytes) }
        return bytes
    }
}
