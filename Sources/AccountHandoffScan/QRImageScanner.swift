import AccountHandoff

/// Reads the transfer code from a photo or screenshot of the sending device's QR code: the
/// file is read strictly (``ImageReader``), turned into 8-bit grey, scanned by zbar for QR
/// codes only, and ``TransferCodeChoice`` picks the one transfer code or says why there is none.
public struct QRImageScanner: Sendable {
    /// Reads the image file.
    public var reader: ImageReader

    /// A scanner whose reader has `limits`.
    public init(limits: ImageLimits = .standard) {
        reader = ImageReader(limits: limits)
    }

    /// The transfer code in the image at `path`, read and decoded on a thread of its own (the
    /// caller's task waits; no Swift concurrency thread blocks).
    ///
    /// - Throws: ``QRScanError/image(_:)`` when the file is not a readable PNG or JPEG within the
    ///   limits, ``QRScanError/refused(_:)`` when it holds no transfer code, one that is not
    ///   valid, or several codes, ``QRScanError/scannerUnavailable`` when zbar fails.
    public func transferCode(inImageAt path: String) async throws(QRScanError) -> SessionPayload {
        let scanner = self
        return try await OwnThread.run(named: "handoff.scan-image") { () throws(QRScanError) -> SessionPayload in
            try scanner.transferCodeBlocking(inImageAt: path)
        }
    }

    /// The same as ``transferCode(inImageAt:)``, on the calling thread.
    ///
    /// - Warning: Blocks while the file is read and decoded (a large photo takes a good part of
    ///   a second): call it from a thread of your own, never from a Swift concurrency thread.
    /// - Throws: as ``transferCode(inImageAt:)``.
    public func transferCodeBlocking(inImageAt path: String) throws(QRScanError) -> SessionPayload {
        let codes = try qrCodesBlocking(inImageAt: path)
        do { return try TransferCodeChoice.transferCode(among: codes) } catch { throw .refused(error) }
    }

    /// Every QR code zbar reads in the image at `path`, whatever it holds.
    ///
    /// - Warning: Blocks, as ``transferCodeBlocking(inImageAt:)`` does.
    /// - Throws: ``QRScanError/image(_:)``, ``QRScanError/scannerUnavailable``.
    public func qrCodesBlocking(inImageAt path: String) throws(QRScanError) -> [ScannedQRCode] {
        let image: GreyImage
        do { image = try reader.read(fileAt: path) } catch { throw .image(error) }
        return try Self.qrCodesBlocking(in: image)
    }

    /// Every QR code zbar reads in `image`.
    ///
    /// - Warning: Blocks while zbar scans (CPU work that grows with the picture's size).
    /// - Throws: ``QRScanError/scannerUnavailable``.
    public static func qrCodesBlocking(in image: GreyImage) throws(QRScanError) -> [ScannedQRCode] {
        try ZBarQRScanner.qrCodes(in: image)
    }
}
