internal import CQREncode
import Foundation

/// The only code that calls libqrencode. Every C object is freed before the function returns,
/// and calls are serialised because the library keeps internal tables it builds lazily.
enum LibQREncode {
    private static let lock = NSLock()

    /// Encodes explicit segments through `QRinput_append` and `QRcode_encodeInput`.
    static func encode(segments: [QRSegment], errorCorrection: QRErrorCorrection) throws(QREncodingError) -> QRMatrix {
        lock.lock()
        defer { lock.unlock() }
        guard let input = QRinput_new2(0, level(errorCorrection)) else { throw .encoderFailed(errno: errno) }
        defer { QRinput_free(input) }
        for segment in segments {
            let data = segment.data
            let status = data.withUnsafeBufferPointer { buffer in
                QRinput_append(input, mode(segment), Int32(buffer.count), buffer.baseAddress)
            }
            guard status == 0 else { throw errno == EINVAL ? .invalidSegment : .encoderFailed(errno: errno) }
        }
        guard let code = QRcode_encodeInput(input) else { throw failure(errno) }
        defer { QRcode_free(code) }
        return matrix(code.pointee, errorCorrection)
    }

    /// Encodes `text` with `QRcode_encodeString`'s automatic, case-sensitive segmentation.
    static func encodeAutomatic(_ text: String, errorCorrection: QRErrorCorrection) throws(QREncodingError) -> QRMatrix {
        lock.lock()
        defer { lock.unlock() }
        let encoded = text.withCString { QRcode_encodeString($0, 0, level(errorCorrection), QR_MODE_8, 1) }
        guard let code = encoded else { throw failure(errno) }
        defer { QRcode_free(code) }
        return matrix(code.pointee, errorCorrection)
    }

    private static func failure(_ code: Int32) -> QREncodingError {
        code == ERANGE ? .dataTooLarge : code == EINVAL ? .invalidSegment : .encoderFailed(errno: code)
    }

    /// Copies the symbol out of the C structure: bit 0 of each byte is the module colour.
    private static func matrix(_ code: QRcode, _ errorCorrection: QRErrorCorrection) -> QRMatrix {
        let size = Int(code.width)
        let modules = (0..<size * size).map { code.data[$0] & 1 == 1 }
        return QRMatrix(uncheckedVersion: Int(code.version), errorCorrection: errorCorrection, size: size, modules: modules)
    }

    private static func level(_ errorCorrection: QRErrorCorrection) -> QRecLevel {
        switch errorCorrection {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }

    private static func mode(_ segment: QRSegment) -> QRencodeMode {
        switch segment {
        case .numeric: QR_MODE_NUM
        case .alphanumeric: QR_MODE_AN
        case .bytes: QR_MODE_8
        }
    }
}
