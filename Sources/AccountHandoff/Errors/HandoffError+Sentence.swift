/// `localizedDescription` reports the role-neutral sentence of ``HandoffError/description``;
/// ``HandoffError/message(for:)`` gives the sentence for one device's person.
extension HandoffError: LocalizedErrorSentence {}
