import AccountHandoff

/// `localizedDescription` reports the sentence of RendezvousTokenError/description.
extension RendezvousTokenError: LocalizedErrorSentence {}
