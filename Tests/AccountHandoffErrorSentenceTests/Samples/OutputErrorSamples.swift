import AccountHandoff
import AccountHandoffQR

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples of the errors of modules `AccountHandoffQR` and `AccountHandoff` (its output files).
enum OutputErrorSamples {
    static var all: [ErrorSample] {
        qrErrors.map { ErrorSample($0) } + fileErrors.map { ErrorSample($0) }
    }

    static let qrErrors: [QREncodingError] = [.invalidSegment, .dataTooLarge, .encoderFailed(errno: ENOMEM)]

    static let fileErrors: [SafeOutputFileError] = {
        let kinds: [SafeOutputFileError.Kind] = [.directory, .fifo, .characterDevice, .blockDevice, .socket, .other]
        let path = "/home/ada/code.svg"
        return [.invalidPath(""), .invalidPath("out/"), .symbolicLink(path), .alreadyExists(path)]
            + kinds.map { SafeOutputFileError.notARegularFile(path, kind: $0) }
            + [ENOENT, ENOTDIR, EACCES, EPERM, EIO].map { SafeOutputFileError.folderUnavailable(path, errno: $0) }
            + [ENOSPC, EIO, EDQUOT].map { SafeOutputFileError.writeFailed(path, operation: .flushing, errno: $0) }
    }()
}
