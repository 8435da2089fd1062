import AccountHandoff
import AccountHandoffQR
import Testing

/// The QR versions a handoff payload reaches, measured with libqrencode 4.1 and pinned here.
/// Version v is 17 + 4v modules wide. The rendezvous token is the only variable-length field.
@Suite struct QRDensityTests {
    /// Versions per level in the order L, M, Q, H.
    struct Row: Sendable, CustomTestStringConvertible {
        let tokenByteCount: Int
        let prefixedNumeric: [Int]
        let libqrencodeAutomatic: [Int]
        let byteMode: [Int]
        let base45Alphanumeric: [Int]
        var testDescription: String { "\(tokenByteCount)-byte token" }
    }

    static let measured = [
        Row(tokenByteCount: 8, prefixedNumeric: [5, 5, 7, 8], libqrencodeAutomatic: [5, 5, 7, 8],
            byteMode: [5, 5, 7, 8], base45Alphanumeric: [5, 5, 7, 8]),
        Row(tokenByteCount: 32, prefixedNumeric: [6, 7, 9, 10], libqrencodeAutomatic: [6, 7, 9, 10],
            byteMode: [5, 6, 8, 10], base45Alphanumeric: [6, 7, 9, 10]),
    ]

    @Test(arguments: measured)
    func versionsPerLevel(row: Row) throws {
        let payload = try Fixtures.payload(tokenByteCount: row.tokenByteCount)
        let digits = String(payload.text.dropFirst(SessionPayload.textPrefix.count))
        func versions(_ make: (QRErrorCorrection) throws -> QRMatrix) throws -> [Int] {
            try QRErrorCorrection.allCases.map { try make($0).version }
        }
        #expect(try versions { try QRMatrix(segments: [.alphanumeric("AH:"), .numeric(digits)], errorCorrection: $0) } == row.prefixedNumeric)
        #expect(try versions { try QRMatrix(automaticallySegmenting: payload.text, errorCorrection: $0) } == row.libqrencodeAutomatic)
        #expect(try versions { try QRMatrix(segments: [.bytes(Array("AH:".utf8) + payload.binary)], errorCorrection: $0) } == row.byteMode)
        #expect(try versions { try QRMatrix(segments: [.alphanumeric("AH:" + Base45.encode(payload.binary))], errorCorrection: $0) } == row.base45Alphanumeric)
        // The payload initializer uses the prefixed numeric segmentation.
        #expect(try versions { try QRMatrix(payload: payload, errorCorrection: $0) } == row.prefixedNumeric)
    }

    /// Why the payload initializer does not also try libqrencode's automatic segmentation:
    /// for no rendezvous length and no level would it give a smaller symbol.
    @Test func automaticSegmentationNeverBeatsThePrefixedNumericOne() throws {
        for tokenByteCount in 0...RendezvousToken.maximumByteCount {
            let payload = try Fixtures.payload(tokenByteCount: tokenByteCount)
            for level in QRErrorCorrection.allCases {
                let chosen = try QRMatrix(payload: payload, errorCorrection: level)
                let automatic = try QRMatrix(automaticallySegmenting: payload.text, errorCorrection: level)
                #expect(automatic.version >= chosen.version, "\(tokenByteCount)-byte token at \(level)")
            }
        }
    }

    @Test func eightByteTokenReachesVersionFiveAtLevelM() throws {
        let matrix = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 8))
        #expect(matrix.errorCorrection == .medium)
        #expect(matrix.version == 5)
        #expect(matrix.size == 37)
    }

    @Test func versionDoesNotDependOnTheByteValues() throws {
        let low = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 32, fill: 0x00))
        let high = try QRMatrix(payload: Fixtures.payload(tokenByteCount: 32, fill: 0xFF))
        #expect(low.version == 7)
        #expect(high.version == 7)
    }
}
