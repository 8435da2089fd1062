import AccountHandoff

/// Which transfer code a picture gives, from the QR symbols found in it: pure logic, no I/O.
///
/// Exactly one distinct symbol must be there, and it must be a transfer code that the strict
/// decoder accepts (Spec 2.4); the same symbol found twice counts once. Anything else is a
/// ``ScannedCodeRefusal`` that says what the picture holds instead, never what the symbol says.
public enum TransferCodeChoice {
    /// The transfer code among `codes`.
    ///
    /// - Throws: ``ScannedCodeRefusal/noCode`` for none, ``ScannedCodeRefusal/severalCodes(_:)``
    ///   for two or more different ones, ``ScannedCodeRefusal/notATransferCode(_:)`` for data
    ///   without the `AH:` prefix, ``ScannedCodeRefusal/invalidTransferCode(_:)`` for a code
    ///   the strict decoder refuses.
    public static func transferCode(among codes: [ScannedQRCode]) throws(ScannedCodeRefusal) -> SessionPayload {
        var distinct: [ScannedQRCode] = []
        for code in codes where !distinct.contains(code) { distinct.append(code) }
        guard let only = distinct.first else { throw .noCode }
        guard distinct.count == 1 else { throw .severalCodes(distinct.count) }
        guard only.bytes.starts(with: SessionPayload.textPrefix.utf8) else {
            throw .notATransferCode(ForeignQRContent(classifying: only.bytes))
        }
        // The prefix is ASCII, but what follows may not be text at all.
        guard let text = String(validating: only.bytes, as: UTF8.self) else { throw .invalidTransferCode(.malformed(.digits)) }
        do { return try SessionPayload(text: text) } catch { throw .invalidTransferCode(error) }
    }
}
