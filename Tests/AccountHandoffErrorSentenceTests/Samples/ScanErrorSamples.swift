import AccountHandoff
import AccountHandoffScan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples of the errors of module `AccountHandoffScan`.
enum ScanErrorSamples {
    static var all: [ErrorSample] {
        imageErrors.map { ErrorSample($0) } + refusals.map { ErrorSample($0) } + cameraErrors.map { ErrorSample($0) }
            + ([.scannerUnavailable] + imageErrors.prefix(2).map { .image($0) } + refusals.prefix(2).map { .refused($0) }
               + cameraErrors.prefix(2).map { .camera($0) } as [QRScanError]).map { ErrorSample($0) }
    }

    static let path = "/home/ada/Pictures/code.jpg"

    static let imageErrors: [ImageReadError] = [
        .unreadable(path: path, errno: ENOENT), .unreadable(path: path, errno: EACCES), .notARegularFile(path: path), .empty(path: path),
        .fileTooLarge(path: path, byteCount: 100 << 20, limit: 64 << 20), .fileTooLarge(path: path, byteCount: 600, limit: 500),
        .changedWhileRead(path: path), .tooManyPixels(path: path, width: 100_000, height: 100_000, limits: .standard),
        .damagedPNG(path: path, libpng: "read beyond end of data"),
        .damagedJPEG(path: path, libjpeg: LibraryMessage(code: 11, text: "Bogus marker length")),
        .incompleteJPEG(path: path, libjpeg: LibraryMessage(code: 120, text: "Premature end of JPEG file")),
        .damagedPNG(path: path, libpng: ""), .damagedJPEG(path: path, libjpeg: LibraryMessage(code: 0, text: "")),
        .tooManyJPEGScans(path: path, limit: 500), .outOfMemory(path: path),
    ] + ImageFormat.allCases.filter { !$0.isDecoded }.map { .unsupportedFormat(path: path, $0) }

    static let refusals: [ScannedCodeRefusal] = [.noCode, .severalCodes(3)]
        + ForeignQRContent.allCases.map { .notATransferCode($0) }
        + [.invalidTransferCode(.malformed(.digits)), .invalidTransferCode(.unsupportedVersion(4)), .invalidTransferCode(.badMagic)]

    static let cameraErrors: [CameraError] = [
        .noCamera(device: "/dev/video0"), .notADevice(device: "/tmp/video0"), .notPermitted(device: "/dev/video0"),
        .noCodeSeen(device: "/dev/video0", seconds: 60),
    ] + ZBarErrorKind.allCases.map { .unavailable(device: "/dev/video1", $0) }
}
