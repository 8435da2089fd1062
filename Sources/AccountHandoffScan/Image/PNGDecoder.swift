internal import CPNG

/// PNG to 8-bit grey through libpng's simplified API (the only file that calls libpng), which
/// converts every colour type, bit depth and interlacing, and keeps libpng's error jumps inside
/// the library.
enum PNGDecoder {
    static func grey(_ file: [UInt8], path: String, limits: ImageLimits) throws(ImageReadError) -> GreyImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let result = file.withUnsafeBytes { bytes -> Result<GreyImage, ImageReadError> in
            // libpng reads `bytes` until the image is finished or freed, both inside this closure.
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
                return .failure(.damagedPNG(path: path, libpng: LibraryMessage.printableText(ofCString: image.message)))
            }
            let width = Int(image.width)
            let height = Int(image.height)
            guard limits.admits(width: width, height: height) else {
                png_image_free(&image)
                return .failure(.tooManyPixels(path: path, width: width, height: height, limits: limits))
            }
            image.format = png_uint_32(PNG_FORMAT_GRAY)
            // A transparent picture is laid on white, as a screen or a page shows it.
            var white = png_color(red: 255, green: 255, blue: 255)
            var pixels = [UInt8](repeating: 255, count: width * height)
            let finished = pixels.withUnsafeMutableBytes { output in
                png_image_finish_read(&image, &white, output.baseAddress, png_int_32(width), nil)
            }
            guard finished != 0 else { return .failure(.damagedPNG(path: path, libpng: LibraryMessage.printableText(ofCString: image.message))) }
            return .success(GreyImage(width: width, height: height, pixels: pixels)!)
        }
        return try result.get()
    }
}
