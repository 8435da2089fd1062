import AccountHandoff
import AccountHandoffQR
import AccountHandoffTransport
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
        // The CLI's tokens (Spec 11.1): 127.0.0.1 (flags and port), another IPv4 address.
        Row(tokenByteCount: 3, prefixedNumeric: [5, 5, 7, 8], libqrencodeAutomatic: [5, 5, 7, 8],
            byteMode: [4, 5, 7, 8], base45Alphanumeric: [4, 5, 7, 8]),
        Row(tokenByteCount: 7, prefixedNumeric: [5, 5, 7, 8], libqrencodeAutomatic: [5, 5, 7, 8],
            byteMode: [5, 5, 7, 8], base45Alphanumeric: [5, 5, 7, 8]),
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

    /// A code with a relay hint (Spec 11.1, 11.2), as the CLI draws it (`AH:` + numeric).
    struct RelayRow: Sendable, CustomTestStringConvertible {
        let name: String
        let direct: String?
        let hostLength: Int
        let tokenByteCount: Int
        /// Versions at L, M, Q, H.
        let versions: [Int]
        var testDescription: String { name }
    }

    /// The CLI's shapes with a 30-character relay host (the ceiling the CLI keeps at version 7
    /// at level M), and the longest hosts a token can hold.
    static let relayRows = [
        RelayRow(name: "relay only, 30-character host", direct: nil, hostLength: 30, tokenByteCount: 23, versions: [5, 6, 8, 10]),
        RelayRow(name: "127.0.0.1 and a 30-character relay host", direct: "127.0.0.1", hostLength: 30, tokenByteCount: 25, versions: [5, 6, 8, 10]),
        RelayRow(name: "LAN address and a 30-character relay host", direct: "192.168.1.20", hostLength: 30, tokenByteCount: 29, versions: [5, 6, 8, 10]),
        RelayRow(name: "LAN address and a 33-character relay host (the longest beside one)", direct: "192.168.1.20", hostLength: 33,
                 tokenByteCount: 31, versions: [6, 7, 8, 10]),
        RelayRow(name: "relay only, 42-character host (the longest)", direct: nil, hostLength: 42, tokenByteCount: 31, versions: [6, 7, 8, 10]),
    ]

    @Test(arguments: relayRows)
    func versionsWithARelayHint(row: RelayRow) throws {
        let labels = String((0..<row.hostLength).map { $0 % 10 == 9 && $0 < row.hostLength - 1 ? "." : "r" })
        let relay = try #require(TCPRendezvous.Relay(host: RelayHost(labels), port: 4001))
        let direct = row.direct.flatMap(IPv4Address.init).flatMap { TCPRendezvous.Endpoint(address: $0, port: 41473) }
        #expect((direct == nil) == (row.direct == nil))
        let token = try TCPRendezvous(direct: direct, relay: relay).token
        #expect(token.bytes.count == row.tokenByteCount)
        let payload = try Fixtures.payload(token: token)
        let versions = try QRErrorCorrection.allCases.map { try QRMatrix(payload: payload, errorCorrection: $0).version }
        #expect(versions == row.versions)
        #expect(row.versions[1] <= 7, "the CLI keeps a relay code at version 7 at level M or below")
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
