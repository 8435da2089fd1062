import AccountHandoffScan
import Foundation
import Testing

/// The camera's failures that need no camera (the test machines have none): nothing at the
/// path, a path that is not a device, and a device that is not a camera, which zbar itself
/// refuses.
@Suite struct CameraTests {
    @Test func noCameraAtThePathIsSaid() async throws {
        let device = "/dev/video-handoff-test-\(UUID().uuidString.prefix(8))"
        await #expect(throws: QRScanError.camera(.noCamera(device: device))) {
            try await QRCameraScanner(device: device, timeoutSeconds: 1).transferCode()
        }
        #expect(CameraError.noCamera(device: "/dev/video0").description == "There is no camera at /dev/video0; connect one, or name another device, or take a photo of the QR code and read it from the file, or type the code the sending device shows.")
    }

    @Test func aFileIsNotACamera() throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let file = try pictures.write([1, 2, 3], "video0")
        #expect(throws: QRScanError.camera(.notADevice(device: file))) { try QRCameraScanner(device: file).transferCodeBlocking() }
        #expect(throws: QRScanError.camera(.notADevice(device: pictures.directory.path))) {
            try QRCameraScanner(device: pictures.directory.path).transferCodeBlocking()
        }
    }

    /// /dev/null is a character device that answers no Video4Linux request: zbar's video
    /// processor opens it, fails to query its capabilities, and says what kind of error it met.
    /// (libv4l2 prints its own complaint on standard error.)
    @Test func aDeviceThatIsNotACameraIsRefusedByZbar() throws {
        #expect(throws: QRScanError.camera(.unavailable(device: "/dev/null", .systemError))) {
            try QRCameraScanner(device: "/dev/null", timeoutSeconds: 1).transferCodeBlocking()
        }
    }
}
