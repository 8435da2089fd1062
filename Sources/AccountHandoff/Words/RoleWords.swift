/// The parts of a sentence that depend on whose screen shows it: the other device, and how
/// to start again.
struct RoleWords {
    /// "the receiving device", "the sending device" or (no role) "the other device", in the
    /// form that is a sentence's subject.
    let otherDevice: String
    /// What to do to try again, as an imperative clause: "ask the sending device for a new
    /// code" on the receiver, "start a new transfer" elsewhere.
    let restart: String

    init(role: HandoffRole?, language: HandoffLanguage) {
        switch role {
        case .sender: otherDevice = sentenceCatalog.sentence("role.otherDevice.sender", in: language)
        case .receiver: otherDevice = sentenceCatalog.sentence("role.otherDevice.receiver", in: language)
        case nil: otherDevice = sentenceCatalog.sentence("role.otherDevice.neutral", in: language)
        }
        restart = role == .receiver
            ? sentenceCatalog.sentence("role.restart.receiver", in: language)
            : sentenceCatalog.sentence("role.restart.other", in: language)
    }
}
