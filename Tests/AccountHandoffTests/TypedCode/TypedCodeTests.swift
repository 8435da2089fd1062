import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// The typed code (Spec 12.1-12.5): what is drawn and in which order, its forms, the strict
/// reading of an entry with its errors in order, and that the secret stays out of sight.
@Suite struct TypedCodeTests {
    /// The design's worked example: nameplate 427 from the draw `01 ab`, secret 8150936 from
    /// `00 7c 5f 98`, check digit 6; each part's first draw is rejected (64000 and 4290000000).
    static func workedExample() -> ScriptedRandom {
        ScriptedRandom([[0xfa, 0x00], [0x01, 0xab], [0xff, 0xb4, 0x34, 0x80], [0x00, 0x7c, 0x5f, 0x98]])
    }

    @Test func drawingTakesNameplateThenSecretAndRejectsAtTheBounds() throws {
        let random = Self.workedExample()
        let code = try TypedCode.draw(from: random)
        #expect(random.requestedCounts == [2, 2, 4, 4])
        #expect(code.nameplate.value == 427)
        #expect(code.digits == "42781509366")
        #expect(code.grouped == "427 8150 9366")
        #expect(code.spoken == "four two seven, eight one five zero, nine three six six")
        #expect(code.checkDigit == 6)
        // The largest accepted draws: 63999 -> 999 and 4289999999 -> 9999999.
        let largest = try TypedCode.draw(from: ScriptedRandom([[0xf9, 0xff], [0xff, 0xb4, 0x34, 0x7f]]))
        #expect(largest.digits.prefix(10) == "9999999999")
        #expect(largest.checkDigit == Int(DammCheckDigit.interim("9999999999")))
    }

    @Test func leadingZerosAreKeptInEveryForm() throws {
        // Nameplate 1000 mod 1000 = 000; secret 10^7 + 42 mod 10^7 = 0000042.
        let code = try TypedCode.draw(from: ScriptedRandom([[0x03, 0xe8], [0x00, 0x98, 0x96, 0xaa]]))
        #expect(code.nameplate.digits == "000")
        #expect(code.digits.hasPrefix("0000000042"))
        #expect(code.grouped.hasPrefix("000 0000 042"))
        #expect(code.spoken.hasPrefix("zero zero zero, zero zero zero zero, zero four two"))
    }

    /// A random source that only gives rejected values fails after 64 draws of the part, with
    /// `keyDerivationFailed`, instead of looping for ever.
    @Test func aBrokenRandomSourceEndsTheDrawAfter64Tries() throws {
        let broken = ScriptedRandom([], thenRepeating: [0xff, 0xff])
        #expect(throws: HandoffError.keyDerivationFailed) { try TypedCode.draw(from: broken) }
        #expect(broken.requestedCounts == Array(repeating: 2, count: TypedCode.maximumDraws))
        let brokenSecret = ScriptedRandom([[0x00, 0x01]], thenRepeating: [0xff, 0xff, 0xff, 0xff])
        #expect(throws: HandoffError.keyDerivationFailed) { try TypedCode.draw(from: brokenSecret) }
        #expect(brokenSecret.requestedCounts == [2] + Array(repeating: 4, count: TypedCode.maximumDraws))
    }

    @Test func drawnCodesAreUniformEnoughAndAlwaysCheck() throws {
        let random = InsecureDeterministicRandom(seed: 28)
        var nameplates = Set<UInt16>()
        for _ in 0..<3000 {
            let code = try TypedCode.draw(from: random)
            #expect(DammCheckDigit.interim(code.digits) == 0)
            nameplates.insert(code.nameplate.value)
        }
        #expect(nameplates.count > 900)
    }

    /// Spec 12.5: separators removed, then non-digits, then six digits, then the length, then
    /// the check, each with its own error.
    @Test func entriesAreReadStrictlyWithTheirErrorsInOrder() throws {
        let accepted = ["42781509366", "427 8150 9366", "427-8150-9366", " 427 8150 9366 ", "4-2-7 81 509366", "427  8150--9366"]
        for entry in accepted {
            #expect(try TypedCode(entry: entry).digits == "42781509366", "\(entry)")
        }
        let refused: [(String, HandoffError)] = [
            ("", .malformed(.typedCode)), ("   - ", .malformed(.typedCode)),
            ("427 8150 936", .malformed(.typedCode)), ("427 8150 93660", .malformed(.typedCode)),
            ("4278150936", .malformed(.typedCode)), ("427815093661", .malformed(.typedCode)),
            ("427 815O 9366", .malformed(.typedCode)), ("427\t8150 9366", .malformed(.typedCode)),
            ("427\u{00A0}8150\u{00A0}9366", .malformed(.typedCode)), ("４２７８１５０９３６６", .malformed(.typedCode)),
            ("427_8150_9366", .malformed(.typedCode)), ("427.8150.9366", .malformed(.typedCode)),
            ("AH:4278150936", .malformed(.typedCode)), ("42781509366\n", .malformed(.typedCode)),
            ("482913", .typedCodeIsShortCode), ("482 913", .typedCodeIsShortCode), ("482-913", .typedCodeIsShortCode),
            ("48291a", .malformed(.typedCode)),
            ("427 8150 9367", .typedCodeCheckFailed), ("427 8150 9636", .typedCodeCheckFailed),
            ("472 8150 9366", .typedCodeCheckFailed), ("427 1850 9366", .typedCodeCheckFailed),
        ]
        for (entry, error) in refused {
            #expect(throws: error, "\(entry.debugDescription)") { try TypedCode(entry: entry) }
        }
    }

    @Test func theSecretStaysOutOfDescriptionsAndIsWiped() throws {
        let code = try TypedCode.draw(from: Self.workedExample())
        var dumped = ""
        dump(code, to: &dumped)
        for text in [code.description, code.debugDescription, String(describing: code), dumped, "\(code)"] {
            #expect(!text.contains("8150936") && !text.contains("8150") && !text.contains("9366"), "\(text)")
            #expect(text.contains("427"))
        }
        let password = try code.password()
        #expect(password.revealedBytes() == Array("8150936".utf8))
        password.wipe()
        let same = try TypedCode(entry: "427 8150 9366")
        let other = try TypedCode(entry: try Self.validCode(nameplate: "427", secret: "8150937"))
        #expect(code.matches(same))
        #expect(!code.matches(other))
        code.wipe()
        #expect(code.isWiped)
    }

    @Test func nameplatesAreThreeDigits() {
        #expect(TypedCode.Nameplate(digits: "042")?.value == 42)
        #expect(TypedCode.Nameplate(value: 42)?.digits == "042")
        for text in ["42", "0042", "4 2", "-42", "४२०", ""] { #expect(TypedCode.Nameplate(digits: text) == nil, "\(text)") }
        #expect(TypedCode.Nameplate(value: 1000) == nil)
        #expect(TypedCode.Nameplate(value: 999)?.bytes == Array("999".utf8))
    }

    @Test func theFormatterLocalisesTheSpokenForm() throws {
        let german = ShortCodeFormatter(digitWords: ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
                                        wordSeparator: "-", groupSeparator: " / ")
        let code = try TypedCode.draw(from: Self.workedExample())
        #expect(german.accessibilityLabel(for: code) == "vier-zwei-sieben / acht-eins-fünf-null / neun-drei-sechs-sechs")
    }

    /// `nameplate | secret` with its check digit appended.
    static func validCode(nameplate: String, secret: String) throws -> String {
        let ten = nameplate + secret
        return ten + String(DammCheckDigit.interim(ten))
    }
}
