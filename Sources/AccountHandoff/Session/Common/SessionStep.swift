import Foundation

/// What one event made a session do: the actions to perform, in order, and when the session
/// next needs the clock.
public struct SessionStep<Action: Sendable>: Sendable {
    /// The actions to perform, in order.
    public let actions: [Action]
    /// When the session's expiry rule will end it unless something else happens first; feed a
    /// `tick` at or after this time. `nil` when no deadline is pending (the session ended, or a
    /// receiver waits for its app's import, which never expires).
    public let nextDeadline: Date?
}

/// A sender's step.
public typealias SenderStep = SessionStep<SenderAction>
/// A receiver's step.
public typealias ReceiverStep = SessionStep<ReceiverAction>
