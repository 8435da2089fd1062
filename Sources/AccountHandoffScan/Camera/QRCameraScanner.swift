import AccountHandoff

/// Reads the transfer code from a camera (Video4Linux, through zbar's video processor), QR
/// codes only, without a preview window.
///
/// - Warning: Never tried on a real camera in this project's tests (the test machines have
///   none): what is tested is every failure that needs no camera.
public struct QRCameraScanner: Sendable {
    /// The camera Linux names first.
    public static let defaultDevice = "/dev/video0"

    /// The camera's device file.
    public var device: String
    /// How long to look for a transfer code before giving up, in seconds.
    public var timeoutSeconds: Int

    /// A scanner of `device` that looks for `timeoutSeconds` (at least 1).
    public init(device: String = QRCameraScanner.defaultDevice, timeoutSeconds: Int = 60) {
        self.device = device
        self.timeoutSeconds = max(timeoutSeconds, 1)
    }

    /// The first transfer code the camera sees, watched for on a thread of its own (no Swift
    /// concurrency thread blocks). Frames with other codes are passed over; when the time runs
    /// out, the last such refusal is reported, or that no code was seen.
    ///
    /// - Parameter watching: called once the camera runs, before the first frame (the moment to
    ///   ask the person to hold up the code); on the scanner's thread.
    /// - Throws: ``QRScanError/camera(_:)`` when the camera cannot be used or sees no code,
    ///   ``QRScanError/refused(_:)`` when it saw only codes that are not a valid transfer code.
    public func transferCode(watching: @escaping @Sendable () -> Void = {}) async throws(QRScanError) -> SessionPayload {
        let scanner = self
        return try await OwnThread.run(named: "handoff.scan-camera") { () throws(QRScanError) -> SessionPayload in
            try scanner.transferCodeBlocking(watching: watching)
        }
    }

    /// The same as ``transferCode(watching:)``, on the calling thread.
    ///
    /// - Warning: Blocks for up to ``timeoutSeconds``: call it from a thread of your own.
    /// - Throws: as ``transferCode(watching:)``.
    public func transferCodeBlocking(watching: () -> Void = {}) throws(QRScanError) -> SessionPayload {
        do throws(CameraError) { try CameraDevice.check(device) } catch { throw .camera(error) }
        return try ZBarCamera.transferCode(device: device, timeoutSeconds: timeoutSeconds, watching: watching)
    }
}
