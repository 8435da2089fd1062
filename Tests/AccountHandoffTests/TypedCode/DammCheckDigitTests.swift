import AccountHandoffTestSupport
import Testing
import TestProcesses
@testable import AccountHandoff

/// The check digit of the typed code (Spec 12.2) catches every single wrong digit and every
/// swap of two neighbours in every 11-digit code. Proved twice: by the table's algebra
/// (checked cell by cell), and by enumerating, position by position, every pair of interim
/// digits that a correct code and a code with one such error can reach (which covers all
/// 10^10 codes, since a code's effect on the check is exactly its interim digit).
@Suite struct DammCheckDigitTests {
    private static func next(_ interim: Int, _ digit: Int) -> Int { Int(DammCheckDigit.table[interim * 10 + digit]) }

    @Test func theTableIsDammsQuasigroupWithAZeroDiagonal() {
        #expect(DammCheckDigit.table.count == 100)
        for row in 0..<10 {
            #expect(Set((0..<10).map { Self.next(row, $0) }) == Set(0..<10), "row \(row) is a permutation")
            #expect(Set((0..<10).map { Self.next($0, row) }) == Set(0..<10), "column \(row) is a permutation")
            #expect(Self.next(row, row) == 0, "diagonal \(row)")
        }
        // Weak total anti-symmetry: (c*a)*b = (c*b)*a only when a = b; all 1000 triples.
        var triples = 0
        for c in 0..<10 {
            for a in 0..<10 {
                for b in 0..<10 where a != b {
                    #expect(Self.next(Self.next(c, a), b) != Self.next(Self.next(c, b), a), "c \(c), a \(a), b \(b)")
                    triples += 1
                }
            }
        }
        #expect(triples == 900)
        // Wikipedia's worked example: 572 has check digit 4, and 5724 checks to 0.
        #expect(DammCheckDigit.interim("572") == 4)
        #expect(DammCheckDigit.interim("5724") == 0)
        // The design note's example code.
        #expect(DammCheckDigit.interim("4278150936") == 6)
    }

    /// The constant-time lookup is the table: every cell.
    @Test func theMaskedLookupReadsEveryCellRight() {
        for interim in 0..<10 {
            for digit in 0..<10 {
                #expect(Int(DammCheckDigit.step(UInt8(interim), UInt8(digit))) == Self.next(interim, digit))
            }
        }
    }

    /// Every error at every position of every 11-digit code, by state: a code reaches position
    /// `i` with some interim digit (all ten are reachable after the first digit); an error there
    /// gives a pair (correct interim, wrong interim); the digits after it carry every pair
    /// forward with every digit. The check catches the error exactly when no pair ends equal.
    @Test func everySingleDigitErrorAndEveryNeighbourSwapIsCaughtInEveryCode() {
        let length = TypedCode.digitCount
        var reachable: [Set<Int>] = [[0]]
        for _ in 0..<length { reachable.append(Set(reachable.last!.flatMap { c in (0..<10).map { Self.next(c, $0) } })) }
        #expect(reachable[1] == Set(0..<10))

        func carried(_ pairs: Set<[Int]>, through digits: Int) -> Set<[Int]> {
            var pairs = pairs
            for _ in 0..<digits { pairs = Set(pairs.flatMap { pair in (0..<10).map { [Self.next(pair[0], $0), Self.next(pair[1], $0)] } }) }
            return pairs
        }

        var singleCases = 0
        for position in 0..<length {
            var pairs: Set<[Int]> = []
            for c in reachable[position] {
                for right in 0..<10 {
                    for wrong in 0..<10 where wrong != right {
                        pairs.insert([Self.next(c, right), Self.next(c, wrong)])
                        singleCases += 1
                    }
                }
            }
            let ends = carried(pairs, through: length - position - 1)
            #expect(ends.allSatisfy { $0[0] != $0[1] }, "a single wrong digit at position \(position + 1) can pass")
        }
        var swapCases = 0
        for position in 0..<(length - 1) {
            var pairs: Set<[Int]> = []
            for c in reachable[position] {
                for a in 0..<10 {
                    for b in 0..<10 where a != b {
                        pairs.insert([Self.next(Self.next(c, a), b), Self.next(Self.next(c, b), a)])
                        swapCases += 1
                    }
                }
            }
            let ends = carried(pairs, through: length - position - 2)
            #expect(ends.allSatisfy { $0[0] != $0[1] }, "a swap of positions \(position + 1) and \(position + 2) can pass")
        }
        // 1 + 10 x 10 start states x 90 errors; 1 + 9 x 10 start states x 90 swaps.
        #expect(singleCases == 90 + 10 * 10 * 90)
        #expect(swapCases == 90 + 9 * 10 * 90)
    }

    /// The same through the real entry parser: for codes drawn from 20 seeds, each of the 99
    /// single-digit errors and each swap of two different neighbours is refused with
    /// `typedCodeCheckFailed`, and the code itself is accepted.
    @Test func theParserRefusesEveryTypoOfDrawnCodes() throws {
        try Self.expectEveryTypoRefused(seeds: 20)
    }

    /// The same for 200 seeds (each entry takes guarded memory, so 22,000 entries cost seconds).
    @Test(.slowSlice) func theParserRefusesEveryTypoOfCodesFromTwoHundredSeeds() throws {
        try Self.expectEveryTypoRefused(seeds: 200)
    }

    static func expectEveryTypoRefused(seeds: Int) throws {
        var refused = 0
        // Each entry that is not refused with exactly `typedCodeCheckFailed`, and what happened
        // (one expectation over all of them: 22,000 expectations of their own cost seconds).
        var notRefused: [String] = []
        func expectRefused(_ entry: [UInt8]) {
            let text = String(decoding: entry, as: UTF8.self)
            do {
                _ = try TypedCode(entry: text)
                notRefused.append("\(text): accepted")
            } catch {
                if error != .typedCodeCheckFailed { notRefused.append("\(text): \(error)") }
            }
            refused += 1
        }
        for seed in 0..<seeds {
            let code = try TypedCode.draw(from: InsecureDeterministicRandom(seed: UInt64(seed)))
            let digits = Array(code.digits.utf8)
            #expect(try TypedCode(entry: code.digits).matches(code))
            for index in digits.indices {
                for digit in UInt8(0x30)...0x39 where digit != digits[index] {
                    var typo = digits
                    typo[index] = digit
                    expectRefused(typo)
                }
            }
            for index in 0..<(digits.count - 1) where digits[index] != digits[index + 1] {
                var swapped = digits
                swapped.swapAt(index, index + 1)
                expectRefused(swapped)
            }
        }
        #expect(notRefused.isEmpty, "typos not refused with typedCodeCheckFailed: \(notRefused.prefix(20))")
        #expect(refused > seeds * 99)
    }
}
