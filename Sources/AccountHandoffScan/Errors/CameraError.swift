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

extension CameraError: LocalizedErrorSentence {
    /// A whole sentence for people: what is wrong with the camera and what to do instead.
    public var description: String {
        let instead = "or take a photo of the QR code and read it from the file, or type the code the sending device shows"
        switch self {
        case .noCamera(let device):
            return "There is no camera at \(device); connect one, or name another device, \(instead)."
        case .notADevice(let device):
            return "The path \(device) is not a camera device (cameras are device files such as /dev/video0); name the camera's device, \(instead)."
        case .notPermitted(let device):
            return "You may not use the camera \(device) (on Debian, add yourself to the video group and log in again), \(instead)."
        case .unavailable(let device, let kind):
            return "The camera \(device) could not be started (zbar: \(kind.rawValue)); check that it is a camera and that no other program uses it, \(instead)."
        case .noCodeSeen(let device, let seconds):
            return "The camera \(device) saw no QR code in \(seconds) seconds; hold the code steady, closer and without glare, then try again, \(instead)."
        }
    }
}
