import AccountHandoff

/// `localizedDescription` reports the sentence of QREncodingError/description.
extension QREncodingError: LocalizedErrorSentence {}
