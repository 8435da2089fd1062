import AccountHandoff

/// Property 7 of ``SimulatedWorld``: what each person is told at the end is true on both
/// devices (Spec 6.4.1). Each rule names the sentence it protects.
///
/// Test support only.
public enum OutcomeTruth {
    /// The first contradiction in a finished world, or `nil` when both outcomes are true.
    public static func contradiction(in world: SimulatedWorld) -> String? {
        guard let sender = world.senderFinalOutcome, let receiver = world.receiverFinalOutcome() else {
            return "a session has no outcome"
        }
        if let problem = senderTellsTheTruth(sender, world) { return problem }
        if let problem = receiverTellsTheTruth(receiver, world) { return problem }
        return world.senderPeer == .receiver
            ? pairTellsTheTruth(sender, receiver, world)
            : receiverOutsideTheSession(receiver, world)
    }

    /// "Nothing was sent" (`ended`) exactly when the credential frame never left.
    static func senderTellsTheTruth(_ sender: SenderOutcome, _ world: SimulatedWorld) -> String? {
        if sender.credentialLeft != world.credentialLeftSender {
            return "the sender says \(sender.identifier) although its credential \(world.credentialLeftSender ? "left" : "never left")"
        }
        return nil
    }

    /// "Nothing was imported" (`ended`) only when the app got nothing; `completed.imported` only
    /// when the app stored the account.
    static func receiverTellsTheTruth(_ receiver: ReceiverOutcome, _ world: SimulatedWorld) -> String? {
        switch receiver {
        case .ended:
            if world.receiverDelivered { return "the receiver says \(receiver.identifier) although its app got the credential" }
        case .completed(let status):
            if !world.receiverDelivered { return "the receiver says \(receiver.identifier) without a delivered credential" }
            if (status == .imported) != world.receiverImportCommitted {
                return "the receiver says \(receiver.identifier) but its app \(world.receiverImportCommitted ? "stored" : "did not store") the account"
            }
        }
        return nil
    }

    /// The sender accepted the honest receiver's hello: the two outcomes describe one session.
    static func pairTellsTheTruth(_ sender: SenderOutcome, _ receiver: ReceiverOutcome, _ world: SimulatedWorld) -> String? {
        let pair = "\(sender.identifier) | \(receiver.identifier)"
        switch (sender, receiver) {
        case (.completed(let told), .completed(let sent)) where told == sent: break
        case (.completed, _):
            return "the sender reports a receipt the receiver never sent: \(pair)"
        case (.ended, .completed):
            return "the receiver imported while the sender says nothing was sent: \(pair)"
        case (.deliveredUnconfirmed, _), (.ended, .ended): break
        }
        if world.receiverDelivered, !sender.credentialLeft { return "the receiver got the credential while the sender says nothing left: \(pair)" }
        let senderEnd: SessionEnd? = switch sender {
        case .completed: nil
        case .deliveredUnconfirmed(let end), .ended(let end): end
        }
        if let senderEnd, let problem = blame(senderEnd, onPeerWhoEnded: receiver.end, senderSide: true, pair) { return problem }
        if let receiverEnd = receiver.end, let problem = blame(receiverEnd, onPeerWhoEnded: senderEnd, senderSide: false, pair) {
            return problem
        }
        if case .deliveredUnconfirmed(.contested) = sender { return "the honest receiver never contests: \(pair)" }
        if case .ended(.contested) = sender, world.producedFrames(.attacker).isEmpty {
            return "the sender says another device joined although none did: \(pair)"
        }
        return nil
    }

    /// An ending blamed on the peer is the one the peer chose; an honest pair never fails but
    /// by transport loss.
    private static func blame(_ end: SessionEnd, onPeerWhoEnded peer: SessionEnd?, senderSide: Bool, _ pair: String) -> String? {
        let me = senderSide ? "sender" : "receiver"
        switch end {
        case .cancelled(by: .peer) where peer != .cancelled(by: .local),
             .rejected(by: .peer) where peer != .rejected(by: .local):
            return "the \(me) blames its peer for an ending the peer did not choose: \(pair)"
        case .contested where !senderSide && peer != .contested:
            return "the receiver says contested while the sender did not: \(pair)"
        case .failed(let error) where error != .transportLost:
            return "an honest pair failed with \(error.identifier): \(pair)"
        default:
            return nil
        }
    }

    /// The sender accepted another device's hello (or none): the honest receiver was never in
    /// the session, so it cannot have received anything, nor an ending chosen by the sender
    /// other than `contested`.
    static func receiverOutsideTheSession(_ receiver: ReceiverOutcome, _ world: SimulatedWorld) -> String? {
        switch receiver {
        case .completed: return "the receiver completed a session the sender never held with it"
        case .ended(.cancelled(by: .peer)), .ended(.rejected(by: .peer)):
            return "the receiver blames a sender that never accepted its hello: \(receiver.identifier)"
        case .ended(.failed(let error)) where error != .transportLost:
            return "the receiver failed with \(error.identifier) outside any session"
        case .ended(.contested) where world.senderPeer == nil:
            return "the receiver says contested although the sender accepted no hello"
        case .ended:
            return nil
        }
    }
}

extension ReceiverOutcome {
    /// The ending, unless the session completed.
    var end: SessionEnd? {
        if case .ended(let end) = self { return end }
        return nil
    }
}
