import AccountHandoff
import AccountHandoffScan
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The strict PNG and JPEG readers and the whole scan, on real files: pictures drawn by the
/// library, photos made of them by ImageMagick, and damaged or hostile files.
@Suite struct ImageReaderTests {
    let scanner = QRImageScanner()

    /// Reads the image on the I/O pool: the reader blocks, and a test's task must not.
    private func readImage(_ path: String, limits: ImageLimits = .standard) async throws(ImageReadError) -> GreyImage {
        try await BlockingIOPool.shared.run { (_: BlockingIOCancellation) throws(ImageReadError) -> GreyImage in
            try ImageReader(limits: limits).read(fileAt: path)
        }
    }

    /// Every QR code in the image, read on the I/O pool.
    private func qrCodes(_ path: String) async throws(QRScanError) -> [ScannedQRCode] {
        let scanner = self.scanner
        return try await BlockingIOPool.shared.run { (_: BlockingIOCancellation) throws(QRScanError) -> [ScannedQRCode] in
            try scanner.qrCodesBlocking(inImageAt: path)
        }
    }

    @Test func theLibrarysOwnPNGReadsBackAsTheSameCode() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let payload = try Pictures.payload()
        let path = try pictures.write(try Pictures.png(payload, scale: 4), "code.png")
        let image = try await readImage(path)
        #expect(image.width == (37 + 8) * 4 && image.height == image.width)
        #expect(Set(image.pixels) == [0, 255], "a 1-bit picture becomes black and white bytes")
        #expect(try await scanner.transferCode(inImageAt: path) == payload)
    }

    @Test func theAsyncScanGivesTheSameCode() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let payload = try Pictures.payload(seed: 3, tokenByteCount: 25)
        let path = try pictures.write(try Pictures.png(payload), "code.png")
        #expect(try await scanner.transferCode(inImageAt: path) == payload)
    }

    /// Grey and colour, PNG and JPEG, with an alpha channel, 16 bits, interlaced, progressive:
    /// each becomes grey and reads back.
    @Test(arguments: [
        ("grey.jpg", ["-quality", "85"]),
        ("colour.png", ["-colorspace", "sRGB", "-type", "TrueColor", "-fill", "#c03020", "-colorize", "30%"]),
        ("colour.jpg", ["-colorspace", "sRGB", "-type", "TrueColor", "-fill", "#2050a0", "-colorize", "35%", "-quality", "80"]),
        ("alpha.png", ["-alpha", "set", "-channel", "A", "-evaluate", "set", "80%", "+channel"]),
        ("deep.png", ["-depth", "16"]),
        ("interlaced.png", ["-interlace", "PNG"]),
        ("progressive.jpg", ["-interlace", "Plane", "-quality", "90"]),
        ("cmyk-free-grey8.png", ["-depth", "8", "-type", "Grayscale"]),
    ])
    func everyKindOfPictureBecomesGreyAndReadsBack(name: String, operators: [String]) async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let payload = try Pictures.payload(seed: 5)
        let source = try pictures.write(try Pictures.png(payload, scale: 6), "source.png")
        try pictures.convert([source] + operators + [pictures.path(name)])
        let image = try await readImage(pictures.path(name))
        #expect(image.width == (37 + 8) * 6)
        #expect(try await scanner.transferCode(inImageAt: pictures.path(name)) == payload)
    }

    @Test func aColourPictureBecomesItsLuminance() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        // Pure red, green and blue: sRGB luminance weights them about 21%, 72% and 7%.
        try pictures.convert(["-size", "3x1", "xc:red", "-fill", "lime", "-draw", "point 1,0", "-fill", "blue", "-draw", "point 2,0",
                              pictures.path("rgb.png")])
        let image = try await readImage(pictures.path("rgb.png"))
        #expect(image.pixels.count == 3)
        #expect(image.pixels[1] > image.pixels[0] && image.pixels[0] > image.pixels[2], "\(image.pixels)")
    }

    @Test func aTruncatedPNGIsDamaged() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let png = try Pictures.png(try Pictures.payload(), scale: 4)
        let path = try pictures.write(Array(png.prefix(png.count / 2)), "cut.png")
        await #expect(throws: ImageReadError.damagedPNG(path: path, libpng: "read beyond end of data")) { try await readImage(path) }
        let headerOnly = try pictures.write(Array(png.prefix(20)), "header.png")
        await #expect(throws: ImageReadError.damagedPNG(path: headerOnly, libpng: "read beyond end of data")) { try await readImage(headerOnly) }
    }

    /// A decoder that refuses a file without a message is reported with words from the
    /// catalog, in the language asked for; its own words are shown as it gave them.
    @Test func aRefusalWithoutTheLibrarysWordsSaysSoInEachLanguage() {
        let path = "/home/ada/Pictures/code.png"
        let png = ImageReadError.damagedPNG(path: path, libpng: "")
        #expect(png.sentence(in: .english)
                == "The PNG image \(path) is damaged or incomplete (libpng: no reason given); take or export the photo again as PNG or JPEG.")
        #expect(png.sentence(in: .german) == "Das PNG-Bild \(path) ist beschädigt oder unvollständig (libpng: ohne Angabe eines Grundes); "
                + "nehmen Sie das Foto noch einmal auf oder exportieren Sie es noch einmal als PNG oder JPEG.")
        let jpeg = ImageReadError.incompleteJPEG(path: path, libjpeg: LibraryMessage(code: 0, text: ""))
        #expect(jpeg.sentence(in: .german) == "Das JPEG-Bild \(path) ist unvollständig oder fehlerhaft (libjpeg: ohne Angabe eines Grundes); "
                + "nehmen Sie das Foto noch einmal auf oder exportieren Sie es noch einmal als PNG oder JPEG.")
        let said = ImageReadError.damagedJPEG(path: path, libjpeg: LibraryMessage(code: 11, text: "Bogus marker length"))
        #expect(said.sentence(in: .german) == "Das JPEG-Bild \(path) ist beschädigt oder kann nicht dekodiert werden (libjpeg: Bogus marker length); "
                + "nehmen Sie das Foto noch einmal auf oder exportieren Sie es noch einmal als PNG oder JPEG.")
    }

    @Test func aPNGWithABrokenChecksumIsDamaged() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        var png = try Pictures.png(try Pictures.payload(), scale: 4)
        png[29] ^= 0xFF  // IHDR's CRC
        let path = try pictures.write(png, "crc.png")
        await #expect(throws: ImageReadError.damagedPNG(path: path, libpng: "IHDR: CRC error")) { try await readImage(path) }
    }

    @Test func aJPEGWithABadHeaderIsDamaged() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let source = try pictures.write(try Pictures.png(try Pictures.payload(), scale: 4), "source.png")
        try pictures.convert([source, "-quality", "90", pictures.path("code.jpg")])
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: pictures.path("code.jpg"))))
        // The frame header (SOF0) with a length that does not match its components.
        var badFrame = jpeg
        let frame = try #require((0..<jpeg.count - 4).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        badFrame[frame + 3] &+= 1
        let badLength = try pictures.write(badFrame, "length.jpg")
        await #expect(throws: ImageReadError.damagedJPEG(path: badLength, libjpeg: LibraryMessage(code: 11, text: "Bogus marker length"))) {
            try await readImage(badLength)
        }
        // Only the SOI marker and garbage: no frame header ever comes.
        let garbage = try pictures.write([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 64), "garbage.jpg")
        await #expect(throws: ImageReadError.damagedJPEG(path: garbage, libjpeg: LibraryMessage(code: 68, text: "Unsupported marker type 0x42"))) {
            try await readImage(garbage)
        }
        // An APP0 segment whose length is too short: libjpeg skips the stray bytes with a
        // warning and would decode the rest; the strict reader refuses it.
        let shortSegment = try pictures.write([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01] + jpeg.dropFirst(6), "segment.jpg")
        await #expect(throws: ImageReadError.incompleteJPEG(path: shortSegment,
                                                      libjpeg: LibraryMessage(code: 116, text: "Corrupt JPEG data: 14 extraneous bytes before marker 0xdb"))) {
            try await readImage(shortSegment)
        }
        // Cut in the middle of the scan: libjpeg would fill the rest with grey and warn.
        let cut = try pictures.write(Array(jpeg.prefix(jpeg.count * 2 / 3)), "cut.jpg")
        await #expect(throws: ImageReadError.incompleteJPEG(path: cut, libjpeg: LibraryMessage(code: 120, text: "Premature end of JPEG file"))) {
            try await readImage(cut)
        }
    }

    /// A small file that declares a huge picture is refused from its header, before a byte of
    /// pixels is allocated: 100,000 x 100,000 grey pixels would take 10 GB.
    @Test func aDecompressionBombIsRefusedFromItsHeader() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let limits = ImageLimits.standard
        let bomb = try pictures.write(Pictures.declaredPNG(width: 100_000, height: 100_000), "bomb.png")
        await #expect(throws: ImageReadError.tooManyPixels(path: bomb, width: 100_000, height: 100_000, limits: limits)) {
            try await readImage(bomb)
        }
        // Within the side limit, over the pixel count.
        let wide = try pictures.write(Pictures.declaredPNG(width: 20_000, height: 20_000), "wide.png")
        await #expect(throws: ImageReadError.tooManyPixels(path: wide, width: 20_000, height: 20_000, limits: limits)) {
            try await readImage(wide)
        }
        // A JPEG's frame header patched to JPEG's largest size, 65,500 x 65,500.
        let source = try pictures.write(try Pictures.png(try Pictures.payload(), scale: 4), "source.png")
        try pictures.convert([source, "-quality", "90", pictures.path("code.jpg")])
        var jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: pictures.path("code.jpg"))))
        let frame = try #require((0..<jpeg.count - 9).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
        let huge = try pictures.write(jpeg, "huge.jpg")
        await #expect(throws: ImageReadError.tooManyPixels(path: huge, width: 65_500, height: 65_500, limits: limits)) {
            try await readImage(huge)
        }
    }

    @Test func theCapsApply() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let png = try Pictures.png(try Pictures.payload(), scale: 4)
        let path = try pictures.write(png, "code.png")
        var small = ImageLimits.standard
        small.maximumFileByteCount = png.count - 1
        await #expect(throws: ImageReadError.fileTooLarge(path: path, byteCount: png.count, limit: png.count - 1)) {
            try await readImage(path, limits: small)
        }
        small = ImageLimits.standard
        small.maximumSide = 179
        await #expect(throws: ImageReadError.tooManyPixels(path: path, width: 180, height: 180, limits: small)) {
            try await readImage(path, limits: small)
        }
        try pictures.convert([path, "-interlace", "Plane", "-quality", "90", pictures.path("progressive.jpg")])
        small = ImageLimits.standard
        small.maximumJPEGScans = 2
        await #expect(throws: ImageReadError.tooManyJPEGScans(path: pictures.path("progressive.jpg"), limit: 2)) {
            try await readImage(pictures.path("progressive.jpg"), limits: small)
        }
    }

    @Test func aPNGWithTwoCodesIsRefusedWithTheCount() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let first = try pictures.write(try Pictures.png(try Pictures.payload(seed: 1)), "first.png")
        let second = try pictures.write(try Pictures.png(try Pictures.payload(seed: 2)), "second.png")
        try pictures.convert([first, second, "+append", pictures.path("two.png")])
        #expect(try await qrCodes(pictures.path("two.png")).count == 2)
        await #expect(throws: QRScanError.refused(.severalCodes(2))) { try await scanner.transferCode(inImageAt: pictures.path("two.png")) }
    }

    @Test func aCodeThatIsNotOursIsRefused() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let path = try pictures.write(try Pictures.png(text: "https://example.org/menu"), "menu.png")
        #expect(try await qrCodes(path) == [ScannedQRCode(bytes: Array("https://example.org/menu".utf8))])
        await #expect(throws: QRScanError.refused(.notATransferCode(.webAddress))) { try await scanner.transferCode(inImageAt: path) }
        let damaged = try pictures.write(try Pictures.png(text: "AH:1234"), "damaged.png")
        await #expect(throws: QRScanError.refused(.invalidTransferCode(.malformed(.digits)))) { try await scanner.transferCode(inImageAt: damaged) }
    }

    @Test func anEmptyImageHoldsNoCode() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let empty = try pictures.write([], "empty.png")
        await #expect(throws: QRScanError.image(.empty(path: empty))) { try await scanner.transferCode(inImageAt: empty) }
        try pictures.convert(["-size", "400x300", "xc:white", pictures.path("white.png")])
        await #expect(throws: QRScanError.refused(.noCode)) { try await scanner.transferCode(inImageAt: pictures.path("white.png")) }
        try pictures.convert(["-size", "400x300", "plasma:", "-seed", "3", pictures.path("scene.jpg")])
        await #expect(throws: QRScanError.refused(.noCode)) { try await scanner.transferCode(inImageAt: pictures.path("scene.jpg")) }
    }

    @Test func otherFormatsAreRefusedByTheirContentsNotTheirName() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let source = try pictures.write(try Pictures.png(try Pictures.payload()), "source.png")
        for (name, format) in [("code.gif", ImageFormat.gif), ("code.bmp", .bmp), ("code.tiff", .tiff), ("code.webp", .webp)] {
            try pictures.convert([source, pictures.path(name)])
            try FileManager.default.moveItem(atPath: pictures.path(name), toPath: pictures.path(name + ".png"))
            await #expect(throws: ImageReadError.unsupportedFormat(path: pictures.path(name + ".png"), format)) {
                try await readImage(pictures.path(name + ".png"))
            }
        }
        let svg = try pictures.write(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "code.svg")
        await #expect(throws: ImageReadError.unsupportedFormat(path: svg, .svg)) { try await readImage(svg) }
        let text = try pictures.write(Array("AH:0123".utf8), "code.jpg")
        await #expect(throws: ImageReadError.unsupportedFormat(path: text, .unknown)) { try await readImage(text) }
        let heic = try pictures.write([0, 0, 0, 24] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 16), "photo.heic")
        await #expect(throws: ImageReadError.unsupportedFormat(path: heic, .heif)) { try await readImage(heic) }
    }

    @Test func whatIsNotARegularFileIsRefusedWithoutWaiting() async throws {
        let pictures = try Pictures()
        defer { pictures.remove() }
        let missing = pictures.path("missing.png")
        await #expect(throws: ImageReadError.unreadable(path: missing, errno: ENOENT)) { try await readImage(missing) }
        await #expect(throws: ImageReadError.notARegularFile(path: pictures.directory.path)) { try await readImage(pictures.directory.path) }
        // A named pipe without a writer: opening it must not wait for one.
        let fifo = pictures.path("pipe.png")
        try #require(mkfifo(fifo, 0o600) == 0)
        await #expect(throws: ImageReadError.notARegularFile(path: fifo)) { try await readImage(fifo) }
        await #expect(throws: ImageReadError.notARegularFile(path: "/dev/null")) { try await readImage("/dev/null") }
    }

    static let signatures: [([UInt8], ImageFormat)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png), ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("GIF89a".utf8), .gif), (Array("BM".utf8), .bmp), ([0x49, 0x49, 0x2A, 0x00], .tiff), ([0x4D, 0x4D, 0x00, 0x2A], .tiff),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp), ([0, 0, 0, 28] + Array("ftypavif".utf8), .avif),
        ([0, 0, 0, 28] + Array("ftypmif1".utf8), .heif), (Array("%PDF-1.7".utf8), .pdf), (Array("<?xml version".utf8), .svg),
        ([0x89, 0x50, 0x4E, 0x47], .unknown), ([0xFF, 0xD8], .unknown), ([], .unknown),
    ]

    @Test(arguments: signatures)
    func formatsAreKnownByTheirSignature(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat(sniffing: bytes) == format)
        #expect(format.isDecoded == (format == .png || format == .jpeg))
    }
}
