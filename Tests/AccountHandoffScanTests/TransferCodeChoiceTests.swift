import AccountHandoff
import AccountHandoffScan
import Testing

/// The decision over the QR codes found in a picture: exactly one transfer code, or a refusal
/// that says what the picture holds instead and never what a code says.
@Suite struct TransferCodeChoiceTests {
    static func code(_ text: String) -> ScannedQRCode { ScannedQRCode(bytes: Array(text.utf8)) }

    @Test func oneTransferCodeIsChosen() throws {
        let payload = try Pictures.payload()
        #expect(try TransferCodeChoice.transferCode(among: [Self.code(payload.text)]) == payload)
    }

    @Test func theSameCodeFoundTwiceCountsOnce() throws {
        let payload = try Pictures.payload()
        #expect(try TransferCodeChoice.transferCode(among: [Self.code(payload.text), Self.code(payload.text)]) == payload)
    }

    @Test func noCodeIsRefused() {
        #expect(throws: ScannedCodeRefusal.noCode) { try TransferCodeChoice.transferCode(among: []) }
    }

    @Test func severalDifferentCodesAreRefusedWithTheirCount() throws {
        let first = try Pictures.payload(seed: 1).text
        let second = try Pictures.payload(seed: 2).text
        #expect(throws: ScannedCodeRefusal.severalCodes(2)) {
            try TransferCodeChoice.transferCode(among: [Self.code(first), Self.code(second)])
        }
        // A transfer code beside a poster's web address is still ambiguous: the person chooses.
        #expect(throws: ScannedCodeRefusal.severalCodes(3)) {
            try TransferCodeChoice.transferCode(among: [Self.code(first), Self.code("https://example.org"), Self.code(second), Self.code(first)])
        }
    }

    @Test(arguments: [
        ("https://example.org/menu", ForeignQRContent.webAddress), ("HTTP://EXAMPLE.ORG", .webAddress),
        ("WIFI:S:Home;T:WPA;P:hunter2;;", .wifiNetwork), ("BEGIN:VCARD\nVERSION:3.0\nEND:VCARD", .contactCard),
        ("MECARD:N:Ada;;", .contactCard), ("hello", .text), ("ah:00000000000000000", .text), ("AH", .text), ("", .text),
    ])
    func aCodeThatIsNotOursSaysWhatItHolds(text: String, content: ForeignQRContent) {
        #expect(throws: ScannedCodeRefusal.notATransferCode(content)) { try TransferCodeChoice.transferCode(among: [Self.code(text)]) }
    }

    @Test func bytesThatAreNotTextAreBinaryData() {
        #expect(throws: ScannedCodeRefusal.notATransferCode(.binaryData)) {
            try TransferCodeChoice.transferCode(among: [ScannedQRCode(bytes: [0xFF, 0xFE, 0x00, 0x41])])
        }
    }

    @Test func aCodeTheStrictDecoderRefusesCarriesItsError() throws {
        let text = try Pictures.payload().text
        let cases: [(String, HandoffError)] = [
            (String(text.dropLast()), .malformed(.digits)),
            (text + "0", .malformed(.digits)),
            ("AH:", .malformed(.version)),
            ("AH:12a45", .malformed(.digits)),
            (Self.withVersion(5, text), .unsupportedVersion(5)),
            (Self.withVersion(3, text), .unsupportedVersion(3)),
        ]
        for (scanned, error) in cases {
            // The decoder's own verdict, so the test pins the decision, not the decoder.
            #expect(throws: error) { try SessionPayload(text: scanned) }
            #expect(throws: ScannedCodeRefusal.invalidTransferCode(error)) { try TransferCodeChoice.transferCode(among: [Self.code(scanned)]) }
        }
        #expect(throws: ScannedCodeRefusal.invalidTransferCode(.malformed(.digits))) {
            try TransferCodeChoice.transferCode(among: [ScannedQRCode(bytes: Array("AH:".utf8) + [0xC3, 0x28])])
        }
    }

    /// A newer sender's code: the version byte changed (Spec 2.3: the first 7 bytes are the
    /// first 17 digits, big-endian).
    static func withVersion(_ version: UInt64, _ text: String) -> String {
        let digits = text.dropFirst(3)
        let first = UInt64(digits.prefix(17))! & ~(UInt64(0xFF) << 48) | version << 48
        let padded = String(repeating: "0", count: 17 - String(first).count) + String(first)
        return "AH:" + padded + digits.dropFirst(17)
    }

    @Test func noRefusalRepeatsWhatTheCodeSays() throws {
        let secret = "SECRETMARKER7F3A"
        let payload = try Pictures.payload()
        let scanned = [[Self.code("https://example.org/\(secret)")], [Self.code("WIFI:S:x;P:\(secret);;")], [Self.code(secret)],
                       [Self.code("AH:\(secret)")], [Self.code(payload.text), Self.code(secret)], [Self.code(String(payload.text.dropLast()))]]
        for codes in scanned {
            do {
                _ = try TransferCodeChoice.transferCode(among: codes)
                Issue.record("\(codes) gave a transfer code")
            } catch {
                #expect(!error.description.contains(secret))
                #expect(!error.description.contains(payload.text.dropFirst(3).prefix(17)))
            }
        }
        #expect("\(Self.code(payload.text))" == "ScannedQRCode(\(payload.text.utf8.count) bytes)")
        #expect(!String(reflecting: Self.code(payload.text)).contains(payload.text))
    }

    @Test func theSentencesSayWhatToDo() {
        #expect(ScannedCodeRefusal.noCode.description == "This image holds no QR code that could be read; take a sharper photo from closer, with the whole code in the picture and no glare on the screen, or type the code the sending device shows instead.")
        #expect(ScannedCodeRefusal.severalCodes(2).description == "This image holds 2 different QR codes, so it is not clear which one to use; photograph only the code the sending device shows (cover or crop the others).")
        #expect(ScannedCodeRefusal.notATransferCode(.webAddress).description == "This image holds a QR code with a web address, not a transfer code (those start with AH: and are shown by the sending device); photograph the code the sending device shows.")
        #expect(ScannedCodeRefusal.invalidTransferCode(.unsupportedVersion(5)).description == "This image holds a QR code that starts like a transfer code but is not a valid one. This code or message uses protocol version 5, newer than this app's (4), so only this device needs updating; update the app here, then ask the sending device for a new code.")
    }
}
