/// The Damm check digit of the typed code (Spec 12.2): it catches every single wrong digit and
/// every swap of two neighbouring digits, so a typo costs no guess.
///
/// The operation is the totally anti-symmetric quasigroup of order 10 of H. Michael Damm,
/// "Total anti-symmetrische Quasigruppen", dissertation, Philipps-Universität Marburg, 2004,
/// page 111, with its rows arranged so that the diagonal is 0: the table of Wikipedia's
/// "Damm algorithm" page (whose example gives check digit 4 for 572). The interim digit starts
/// at 0 and each digit `d` turns it into `table[interim][d]`.
package enum DammCheckDigit {
    /// The quasigroup, row by row: `table[interim * 10 + digit]` is the next interim digit.
    package static let table: [UInt8] = [
        0, 3, 1, 7, 5, 9, 8, 6, 4, 2,
        7, 0, 9, 2, 1, 5, 4, 8, 6, 3,
        4, 2, 0, 6, 8, 7, 1, 3, 5, 9,
        1, 7, 5, 0, 9, 8, 3, 4, 2, 6,
        6, 1, 2, 3, 0, 4, 5, 9, 7, 8,
        3, 6, 7, 4, 2, 0, 9, 5, 8, 1,
        5, 8, 6, 9, 7, 2, 0, 1, 3, 4,
        8, 9, 4, 5, 3, 6, 2, 0, 1, 7,
        9, 4, 3, 8, 6, 1, 7, 2, 0, 5,
        2, 5, 8, 1, 4, 3, 6, 7, 9, 0,
    ]

    /// The final interim digit after `digits` (ASCII `0`...`9`), starting from 0. Over the ten
    /// digits of nameplate and secret it is the check digit; over all eleven of a correct code
    /// it is 0.
    ///
    /// Every step reads the whole table, so the time taken does not depend on the (secret)
    /// digits.
    ///
    /// - Precondition: every byte of `digits` is an ASCII digit.
    package static func interim(_ digits: UnsafeRawBufferPointer) -> UInt8 {
        var interim: UInt8 = 0
        for byte in digits {
            precondition((0x30...0x39).contains(byte), "Damm check over a non-digit")
            interim = step(interim, byte - 0x30)
        }
        return interim
    }

    /// ``interim(_:)-(UnsafeRawBufferPointer)`` of a text's ASCII digits.
    ///
    /// - Precondition: `digits` holds only ASCII digits.
    package static func interim(_ digits: String) -> UInt8 {
        Array(digits.utf8).withUnsafeBytes { interim($0) }
    }

    /// `table[interim][digit]`, looked up by reading every entry and keeping the one at the
    /// index through a mask, so no memory access depends on the digits.
    static func step(_ interim: UInt8, _ digit: UInt8) -> UInt8 {
        let index = UInt32(interim) &* 10 &+ UInt32(digit)
        var next: UInt8 = 0
        for (position, value) in table.enumerated() {
            let difference = UInt32(position) ^ index  // below 128
            let isIndex = UInt8(truncatingIfNeeded: (difference &- 1) >> 31)  // 1 only for difference 0
            next |= value & (0 &- isIndex)
        }
        return next
    }
}
