import AccountHandoff

/// `localizedDescription` reports the sentence of InterfaceAddressError/description.
extension InterfaceAddressError: LocalizedErrorSentence {}
