internal import CJPEGDecode

/// JPEG to 8-bit grey through libjpeg (libjpeg-turbo), by way of the C shim that keeps libjpeg's
/// error jumps out of Swift. Strict: a warning (corrupt or missing data that libjpeg would fill
/// in) refuses the image like an error does.
enum JPEGDecoder {
    static func grey(_ file: [UInt8], path: String, limits: ImageLimits) throws(ImageReadError) -> GreyImage {
        let result = file.withUnsafeBufferPointer { bytes -> Result<GreyImage, ImageReadError> in
            // The decoder reads `bytes` until it is closed, inside this closure.
            guard let decoder = CJPEGDecodeOpen(bytes.baseAddress, bytes.count, Int32(clamping: limits.maximumJPEGScans),
                                                limits.maximumJPEGMemory) else {
                return .failure(.outOfMemory(path: path))
            }
            defer { CJPEGDecodeClose(decoder) }
            var failure = CJPEGDecodeFailure()
            var width: UInt32 = 0
            var height: UInt32 = 0
            let header = CJPEGDecodeReadHeader(decoder, &width, &height, &failure)
            guard header == CJPEGDecodeOK else { return .failure(refusal(header, failure, path: path, limits: limits)) }
            guard limits.admits(width: Int(width), height: Int(height)) else {
                return .failure(.tooManyPixels(path: path, width: Int(width), height: Int(height), limits: limits))
            }
            var pixels = [UInt8](repeating: 255, count: Int(width) * Int(height))
            let read = pixels.withUnsafeMutableBufferPointer { output in
                CJPEGDecodeReadGrey(decoder, output.baseAddress, Int(width), &failure)
            }
            guard read == CJPEGDecodeOK else { return .failure(refusal(read, failure, path: path, limits: limits)) }
            return .success(GreyImage(width: Int(width), height: Int(height), pixels: pixels)!)
        }
        return try result.get()
    }

    private static func refusal(_ status: CJPEGDecodeStatus, _ failure: CJPEGDecodeFailure, path: String,
                                limits: ImageLimits) -> ImageReadError {
        switch status {
        case CJPEGDecodeTooManyScans: return .tooManyJPEGScans(path: path, limit: limits.maximumJPEGScans)
        case CJPEGDecodeOutOfMemory: return .outOfMemory(path: path)
        default:
            let libjpeg = LibraryMessage(code: Int(failure.messageCode), text: LibraryMessage.printableText(ofCString: failure.message))
            return status == CJPEGDecodeLibraryWarning ? .incompleteJPEG(path: path, libjpeg: libjpeg)
                                                       : .damagedJPEG(path: path, libjpeg: libjpeg)
        }
    }
}
