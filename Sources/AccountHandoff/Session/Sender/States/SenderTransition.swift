/// What one row of a sender state's table returns (Spec 6.1): the actions to perform, in
/// order, and what follows them. ``HandoffSender`` applies it: it moves to the next state, or
/// finishes the session and wipes every secret the session owns (Spec 6.5).
///
/// A value type on the stack: a transition allocates nothing beyond its actions array, which
/// the step returns as it is.
struct SenderTransition {
    /// What follows the actions.
    enum Next {
        /// The state stays as it is (an ignored frame).
        case unchanged
        /// The session goes on in this state.
        case state(SenderState)
        /// The session ends with this outcome; the actions end with `finished(outcome)`.
        case finished(SenderOutcome)
    }

    let next: Next
    let actions: [SenderAction]

    /// What follows and the actions, moved out of the transition.
    consuming func parts() -> (next: Next, actions: [SenderAction]) { (next, actions) }

    /// Goes on in `state` after `actions`.
    static func next(_ state: SenderState, _ actions: [SenderAction]) -> SenderTransition {
        SenderTransition(next: .state(state), actions: actions)
    }

    /// Nothing to do, nothing changes.
    static var nothing: SenderTransition { SenderTransition(next: .unchanged, actions: []) }

    /// Drops a frame without changing anything (Spec 6: `ignored(error)`).
    static func ignore(_ error: HandoffError) -> SenderTransition {
        SenderTransition(next: .unchanged, actions: [.ignored(error)])
    }

    /// Ends the session with `outcome`, after sending `frame` to the peer and `reply` back to a
    /// second device, when given.
    static func finish(_ outcome: SenderOutcome, sending frame: [UInt8]? = nil,
                       replying reply: [UInt8]? = nil) -> SenderTransition {
        let actions: [SenderAction] = switch (frame, reply) {
        case (nil, nil): [.finished(outcome)]
        case (let frame?, nil): [.send(frame), .finished(outcome)]
        case (nil, let reply?): [.reply(reply), .finished(outcome)]
        case (let frame?, let reply?): [.send(frame), .reply(reply), .finished(outcome)]
        }
        return SenderTransition(next: .finished(outcome), actions: actions)
    }
}
