/// What one row of a receiver state's table returns (Spec 6.2): the actions to perform, in
/// order, and what follows them. ``HandoffReceiver`` applies it: it moves to the next state, or
/// finishes the session and wipes every secret the session owns (Spec 6.5).
///
/// A value type on the stack: a transition allocates nothing beyond its actions array, which
/// the step returns as it is.
struct ReceiverTransition {
    /// What follows the actions.
    enum Next {
        /// The state stays as it is (an ignored frame).
        case unchanged
        /// The session goes on in this state.
        case state(ReceiverState)
        /// The session ends with this outcome; the actions end with `finished(outcome)`.
        case finished(ReceiverOutcome)
    }

    let next: Next
    let actions: [ReceiverAction]

    /// What follows and the actions, moved out of the transition.
    consuming func parts() -> (next: Next, actions: [ReceiverAction]) { (next, actions) }

    /// Nothing to do, nothing changes.
    static var nothing: ReceiverTransition { ReceiverTransition(next: .unchanged, actions: []) }

    /// Goes on in `state` after `actions`.
    static func next(_ state: ReceiverState, _ actions: [ReceiverAction]) -> ReceiverTransition {
        ReceiverTransition(next: .state(state), actions: actions)
    }

    /// Drops a frame without changing anything (Spec 6: `ignored(error)`).
    static func ignore(_ error: HandoffError) -> ReceiverTransition {
        ReceiverTransition(next: .unchanged, actions: [.ignored(error)])
    }

    /// Ends the session with `outcome`, after sending `frame` to the sender when given.
    static func finish(_ outcome: ReceiverOutcome, sending frame: [UInt8]? = nil) -> ReceiverTransition {
        let actions: [ReceiverAction] = if let frame { [.send(frame), .finished(outcome)] } else { [.finished(outcome)] }
        return ReceiverTransition(next: .finished(outcome), actions: actions)
    }
}
