/// Sessions print and reflect only their public state, so `print`, `dump` and debuggers never
/// walk into keys, the challenge or a pending credential.
extension HandoffSender: CustomStringConvertible, CustomReflectable {
    /// `HandoffSender(transfer <id>, <state>)`.
    public var description: String { "HandoffSender(transfer \(payload.transferID), \(state))" }
    /// Transfer ID and state only.
    public var customMirror: Mirror {
        Mirror(self, children: ["transferID": payload.transferID, "state": state], displayStyle: .class)
    }
}

extension HandoffReceiver: CustomStringConvertible, CustomReflectable {
    /// `HandoffReceiver(transfer <id>, <state>)`.
    public var description: String { "HandoffReceiver(transfer \(payload.transferID), \(state))" }
    /// Transfer ID and state only.
    public var customMirror: Mirror {
        Mirror(self, children: ["transferID": payload.transferID, "state": state], displayStyle: .class)
    }
}
