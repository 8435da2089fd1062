extension GateDeclaration {
    /// What the screen of `role` says about the other device's declaration, before its own
    /// commitment (Spec 3.4, 3.6): the receiving screen with the offered account, the sending
    /// screen before the password is read. `nil` for ``asks``: nothing to warn about.
    ///
    /// - Parameters:
    ///   - role: the device whose screen shows the sentence (not the one that declared).
    ///   - language: the language to say it in.
    /// - Returns: for ``skipped`` on the receiving screen, "The sending device will not ask its
    ///   person to prove who they are before the password leaves."; on the sending screen,
    ///   "The receiving device did not ask its person to prove who they are."
    public func sentence(shownBy role: HandoffRole, in language: HandoffLanguage = .current) -> String? {
        switch (self, role) {
        case (.asks, _): nil
        case (.skipped, .receiver): sentenceCatalog.sentence("receiver.peerGate.skipped", in: language)
        case (.skipped, .sender): sentenceCatalog.sentence("sender.peerGate.skipped", in: language)
        }
    }
}
