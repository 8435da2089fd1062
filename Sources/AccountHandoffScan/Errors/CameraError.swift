import AccountHandoff

/// Why a camera gave no transfer code. Never tried on a real camera in this project's tests
/// (the test machines have none); the cases that need no camera are.
public enum CameraError: Error, Hashable, Sendable {
    /// Nothing exists at the device path.
    case noCamera(device: String)
    /// The path exists but is not a device (a file, a folder).
    case notADevice(device: String)
    /// This user may not open the device.
    case notPermitted(device: String)
    /// zbar could not start video from the device (it may not be a camera); zbar's kind of error.
    case unavailable(device: String, ZBarErrorKind)
    /// The camera ran for this many seconds without seeing any QR code.
    case noCodeSeen(device: String, seconds: Int)
}

/// zbar's class of an error (`zbar_error_t`).
public enum ZBarErrorKind: String, Hashable, Sendable, CaseIterable {
    /// Out of memory.
    case outOfMemory = "out of memory"
    /// An error inside zbar.
    case internalError = "internal error"
    /// zbar does not support the request (for example the device's picture formats).
    case unsupported = "unsupported request"
    /// The request is not valid for this device.
    case invalidRequest = "invalid request"
    /// A system call failed (the device cannot be opened or does not answer as a camera).
    case systemError = "system error"
    /// A lock could not be taken.
    case lockingError = "locking error"
    /// Every resource is busy (another program uses the camera).
    case busy = "device busy"
    /// The display could not be used.
    case displayError = "display error"
    /// The output window was closed.
    case closed = "window closed"
    /// Any other code.
    case other = "unknown error"
}

extension CameraError: TranslatedSentence {
    /// A whole sentence for people: what is wrong with the camera and what to do instead.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .noCamera(let device):
            sentenceCatalog.sentence("camera.noCamera", .text(device), in: language)
        case .notADevice(let device):
            sentenceCatalog.sentence("camera.notADevice", .text(device), in: language)
        case .notPermitted(let device):
            sentenceCatalog.sentence("camera.notPermitted", .text(device), in: language)
        case .unavailable(let device, let kind):
            sentenceCatalog.sentence("camera.unavailable", .text(device), .text(kind.words(in: language)), in: language)
        case .noCodeSeen(let device, let seconds):
            sentenceCatalog.sentence("camera.noCodeSeen", .text(device), .number(seconds), in: language)
        }
    }
}

extension ZBarErrorKind {
    /// zbar's class of error, in words (its raw value is zbar's own English name).
    func words(in language: HandoffLanguage) -> String {
        switch self {
        case .outOfMemory: sentenceCatalog.sentence("zbar.outOfMemory", in: language)
        case .internalError: sentenceCatalog.sentence("zbar.internalError", in: language)
        case .unsupported: sentenceCatalog.sentence("zbar.unsupported", in: language)
        case .invalidRequest: sentenceCatalog.sentence("zbar.invalidRequest", in: language)
        case .systemError: sentenceCatalog.sentence("zbar.systemError", in: language)
        case .lockingError: sentenceCatalog.sentence("zbar.lockingError", in: language)
        case .busy: sentenceCatalog.sentence("zbar.busy", in: language)
        case .displayError: sentenceCatalog.sentence("zbar.displayError", in: language)
        case .closed: sentenceCatalog.sentence("zbar.closed", in: language)
        case .other: sentenceCatalog.sentence("zbar.other", in: language)
        }
    }
}
