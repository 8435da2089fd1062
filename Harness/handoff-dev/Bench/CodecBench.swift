import HandoffCLI
import AccountHandoff
import AccountHandoffBench
import AccountHandoffQR
import CQREncode
import Foundation

/// The QR and frame codecs per operation: payload -> text -> module matrix through
/// AccountHandoffQR against one raw libqrencode call with the same segments, strict QR text
/// decoding, and strict frame decoding.
struct CodecBench {
    let session: ReferenceSession
    let iterations: Int
    let repetitions: Int

    struct Result: Codable, Equatable {
        /// `QRMatrix(payload:)`: the text, then the module matrix (AccountHandoffQR).
        let qrMatrixMicroseconds: Spread
        /// `QRinput_append("AH:", alphanumeric)`, `QRinput_append(digits, numeric)`, `QRcode_encodeInput`.
        let qrRawLibqrencodeMicroseconds: Spread
        let qrMatrixOverRaw: Spread
        /// The symbol's version (both encoders give the same one) and level.
        let qrVersion: Int
        let qrErrorCorrection: String
        /// `SessionPayload(text:)`: strict decode and validation of a QR text.
        let qrTextDecodeMicroseconds: Spread
        /// `Frame(bytes:)` over the six frames of a session, per frame.
        let frameDecodeMicroseconds: Spread

        enum CodingKeys: String, CodingKey {
            case qrMatrixMicroseconds = "qr_matrix_us", qrRawLibqrencodeMicroseconds = "qr_raw_libqrencode_us"
            case qrMatrixOverRaw = "qr_matrix_over_raw", qrVersion = "qr_version", qrErrorCorrection = "qr_error_correction"
            case qrTextDecodeMicroseconds = "qr_text_decode_us", frameDecodeMicroseconds = "frame_decode_us_per_frame"
        }
    }

    func run() throws(BenchFailure) -> Result {
        let random = SystemRandomSource()
        let payload: SessionPayload
        let frames: [[UInt8]]
        do {
            payload = try session.start(random: random, now: Date()).payload
            frames = try session.run(random: random, now: Date(), keepingFrames: true).kept
        } catch { throw BenchFailure(error) }
        let text = payload.text
        let digits = Array(text.utf8.dropFirst(SessionPayload.textPrefix.utf8.count)) + [0]
        let prefix = Array(SessionPayload.textPrefix.utf8) + [0]

        let module: QRMatrix
        do { module = try QRMatrix(payload: payload) } catch { throw BenchFailure("The QR module could not encode a payload: \(error).") }
        guard let rawVersion = Self.rawEncode(prefix, digits), rawVersion == module.version else {
            throw BenchFailure("libqrencode did not encode the payload in the version the QR module chose.")
        }

        var matrix: [Double] = [], raw: [Double] = [], ratio: [Double] = [], decode: [Double] = [], frame: [Double] = []
        let qrRuns = max(1, iterations / 2)
        let codecRuns = iterations * 20
        for _ in 0..<repetitions {
            let moduleTime = Stopwatch.microseconds(per: qrRuns) { _ = try? QRMatrix(payload: payload) }
            let rawTime = Stopwatch.microseconds(per: qrRuns) { _ = Self.rawEncode(prefix, digits) }
            matrix.append(moduleTime)
            raw.append(rawTime)
            ratio.append(moduleTime / rawTime)
            decode.append(Stopwatch.microseconds(per: codecRuns) { _ = try? SessionPayload(text: text) })
            frame.append(Stopwatch.microseconds(per: codecRuns) { for bytes in frames { _ = try? Frame(bytes: bytes) } }
                         / Double(frames.count))
        }
        return Result(
            qrMatrixMicroseconds: Spread(matrix, decimals: 2), qrRawLibqrencodeMicroseconds: Spread(raw, decimals: 2),
            qrMatrixOverRaw: Spread(ratio, decimals: 3), qrVersion: module.version,
            qrErrorCorrection: module.errorCorrection.rawValue,
            qrTextDecodeMicroseconds: Spread(decode, decimals: 3), frameDecodeMicroseconds: Spread(frame, decimals: 3))
    }

    /// One raw libqrencode encode at level M of `AH:` (alphanumeric) then the digits
    /// (numeric), both NUL-terminated; the symbol's version, or nil when it fails.
    private static func rawEncode(_ prefix: [UInt8], _ digits: [UInt8]) -> Int? {
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { return nil }
        defer { QRinput_free(input) }
        guard QRinput_append(input, QR_MODE_AN, Int32(prefix.count - 1), prefix) == 0,
              QRinput_append(input, QR_MODE_NUM, Int32(digits.count - 1), digits) == 0,
              let code = QRcode_encodeInput(input) else { return nil }
        defer { QRcode_free(code) }
        return Int(code.pointee.version)
    }
}
