#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a camera's device path before zbar opens it, so that the common failures get their
/// own sentence: nothing there, not a device, no permission.
enum CameraDevice {
    static func check(_ device: String) throws(CameraError) {
        var status = stat()
        guard stat(device, &status) == 0 else {
            throw errno == EACCES ? .notPermitted(device: device) : .noCamera(device: device)
        }
        guard status.st_mode & S_IFMT == S_IFCHR else { throw .notADevice(device: device) }
        guard access(device, R_OK | W_OK) == 0 else { throw .notPermitted(device: device) }
    }
}
