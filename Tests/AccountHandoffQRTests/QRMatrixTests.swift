import AccountHandoff
import AccountHandoffQR
import Testing

@Suite struct QRMatrixTests {
    @Test func symbolSideFollowsTheVersion() throws {
        for count in [0, 8, 20, 32] {
            let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: count))
            #expect(matrix.size == 17 + 4 * matrix.version)
            #expect(matrix.modules.count == matrix.size * matrix.size)
            #expect(matrix.rows.count == matrix.size)
        }
    }

    @Test func finderPatternCornersAreDarkAndOutsideIsLight() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        let last = matrix.size - 1
        #expect(matrix[0, 0] && matrix[0, last] && matrix[last, 0])
        #expect(!matrix[-1, 0] && !matrix[0, matrix.size] && !matrix[matrix.size, matrix.size])
    }

    @Test func rowsInitializerRoundTripsAndRefusesWrongShapes() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        #expect(QRMatrix(version: matrix.version, errorCorrection: .medium, rows: matrix.rows) == matrix)
        #expect(QRMatrix(version: 4, errorCorrection: .medium, rows: matrix.rows) == nil)
        #expect(QRMatrix(version: 5, errorCorrection: .medium, rows: Array(matrix.rows.dropLast())) == nil)
        #expect(QRMatrix(version: 0, errorCorrection: .medium, rows: []) == nil)
    }

    @Test func segmentCharactersMustFitTheirMode() {
        #expect(throws: QREncodingError.invalidSegment) { try QRMatrix(segments: [.numeric("12a")]) }
        #expect(throws: QREncodingError.invalidSegment) { try QRMatrix(segments: [.alphanumeric("ah:")]) }
        #expect(throws: QREncodingError.invalidSegment) { try QRMatrix(segments: []) }
        #expect(throws: QREncodingError.invalidSegment) { try QRMatrix(segments: [.numeric("")]) }
        #expect(throws: QREncodingError.invalidSegment) { try QRMatrix(automaticallySegmenting: "") }
    }

    @Test func dataBeyondVersionFortyIsRefused() {
        let tooMuch = String(repeating: "7", count: 7_090)  // version 40-L holds 7,089 digits
        #expect(throws: QREncodingError.dataTooLarge) { try QRMatrix(segments: [.numeric(tooMuch)], errorCorrection: .low) }
        #expect(throws: QREncodingError.dataTooLarge) { try QRMatrix(automaticallySegmenting: tooMuch, errorCorrection: .low) }
    }

    @Test func levelLettersParse() {
        #expect(QRErrorCorrection(letter: "m") == .medium)
        #expect(QRErrorCorrection(letter: "H") == .high)
        #expect(QRErrorCorrection(letter: "X") == nil)
        #expect(QRErrorCorrection.standard == .medium)
    }
}
