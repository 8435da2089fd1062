import AccountHandoff

/// Short, secret-free names of the actions sessions return, for traces and test assertions:
/// `send`, `reply`, `askForCode`, `ignored(replayed)`, `finished(deliveredUnconfirmed.expired)`...
///
/// Test support only.
public enum ActionName {
    /// The name of a sender action.
    public static func of(_ action: SenderAction) -> String {
        switch action {
        case .send: "send"
        case .reply: "reply"
        case .askForCode: "askForCode"
        case .codeMismatch(let remaining): "codeMismatch(\(remaining))"
        case .requestCredential: "requestCredential"
        case .anotherDeviceJoined: "anotherDeviceJoined"
        case .ignored(let error): "ignored(\(error.identifier))"
        case .finished(let outcome): "finished(\(outcome.identifier))"
        case .startTypedRun: "startTypedRun"
        case .typedCodeRetired(_, let wrongGuesses): "typedCodeRetired(\(wrongGuesses))"
        case .typedCodeReplaced: "typedCodeReplaced"
        case .typedWayWithdrawn(let reason): "typedWayWithdrawn(\(reason))"
        case .pairedByTypedCode: "pairedByTypedCode"
        }
    }

    /// The name of a receiver action.
    public static func of(_ action: ReceiverAction) -> String {
        switch action {
        case .send: "send"
        case .showShortCode: "showShortCode"
        case .showAccount: "showAccount"
        case .deliverAccount: "deliverAccount"
        case .ignored(let error): "ignored(\(error.identifier))"
        case .finished(let outcome): "finished(\(outcome.identifier))"
        }
    }
}

/// How a session reacted to one frame: ignored it (with the error), was ended by the clock
/// before looking at it, or acted on it. The action names are rendered only when asked for.
struct FrameReaction {
    enum Kind {
        case ignored(HandoffError)
        case expired
        case acted
    }

    private enum Actions {
        case sender([SenderAction])
        case receiver([ReceiverAction])
    }

    let kind: Kind
    private let actions: Actions

    /// The expiry rule ends the session before the frame is looked at: `finished(expired)`,
    /// after the abort that tells the peer when the session held its keys (Spec 6.0 step 3).
    init(_ actions: [SenderAction]) {
        self.actions = .sender(actions)
        let expiryAbort = actions.count == 2 && { if case .send = actions[0] { true } else { false } }()
        switch actions.last {
        case .ignored(let error)? where actions.count == 1: kind = .ignored(error)
        case .finished(.ended(.expired))? where actions.count == 1 || expiryAbort,
             .finished(.deliveredUnconfirmed(.expired))? where actions.count == 1:
            kind = .expired
        default: kind = .acted
        }
    }

    init(_ actions: [ReceiverAction]) {
        self.actions = .receiver(actions)
        let expiryAbort = actions.count == 2 && { if case .send = actions[0] { true } else { false } }()
        switch actions.last {
        case .ignored(let error)? where actions.count == 1: kind = .ignored(error)
        case .finished(.ended(.expired))? where actions.count == 1 || expiryAbort: kind = .expired
        default: kind = .acted
        }
    }

    /// Whether the frame was ignored.
    var wasIgnored: Bool {
        if case .ignored = kind { return true }
        return false
    }

    /// The names of the actions, e.g. `["send", "showShortCode"]`.
    var names: [String] {
        switch actions {
        case .sender(let actions): actions.map { ActionName.of($0) }
        case .receiver(let actions): actions.map { ActionName.of($0) }
        }
    }
}
