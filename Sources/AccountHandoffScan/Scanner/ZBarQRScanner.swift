internal import CZbar

/// Finds the QR symbols in a greyscale picture with zbar's image scanner (the only file that
/// calls it), every other symbology disabled. Blocking, and one scanner per call: zbar's
/// scanners are not shared between threads.
enum ZBarQRScanner {
    /// zbar's name for 8-bit greyscale, `Y800`.
    private static let grey: UInt = 0x3030_3859

    static func qrCodes(in image: GreyImage) throws(QRScanError) -> [ScannedQRCode] {
        guard let scanner = zbar_image_scanner_create() else { throw .scannerUnavailable }
        defer { zbar_image_scanner_destroy(scanner) }
        guard configure(scanner), let zbarImage = zbar_image_create() else { throw .scannerUnavailable }
        defer { zbar_image_destroy(zbarImage) }
        zbar_image_set_format(zbarImage, grey)
        zbar_image_set_size(zbarImage, UInt32(image.width), UInt32(image.height))
        let found = image.pixels.withUnsafeBytes { pixels -> Int32 in
            // No cleanup handler: zbar only borrows the pixels, for this call.
            zbar_image_set_data(zbarImage, pixels.baseAddress, UInt(pixels.count), nil)
            defer { zbar_image_set_data(zbarImage, nil, 0, nil) }
            return zbar_scan_image(scanner, zbarImage)
        }
        guard found >= 0 else { throw .scannerUnavailable }
        return symbols(from: zbar_image_first_symbol(zbarImage))
    }

    /// QR only, its data as raw bytes, and a second pass over the inverted picture when the
    /// first finds nothing (a code drawn light on dark, as on a dark terminal theme).
    private static func configure(_ scanner: OpaquePointer) -> Bool {
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1) == 0
    }

    /// The QR symbols of a zbar result list, in zbar's order.
    static func symbols(from first: OpaquePointer?) -> [ScannedQRCode] {
        var codes: [ScannedQRCode] = []
        var symbol = first
        while let current = symbol {
            if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                let count = Int(zbar_symbol_get_data_length(current))
                codes.append(ScannedQRCode(bytes: Array(UnsafeRawBufferPointer(start: data, count: count))))
            }
            symbol = zbar_symbol_next(current)
        }
        return codes
    }
}
