import AccountHandoff
import AccountHandoffPhotoLab
import AccountHandoffQR
import Foundation
import Testing
import TestProcesses

/// `handoff receive --scan IMAGE` and `--camera [DEVICE]` against the built binary: a whole
/// transfer from a photo of a real sender's QR code, and each failure's sentence and exit code.
/// The photos are made by ImageMagick from the QR that `handoff qr --png` draws.
@Suite(.startsProcesses) struct CLIScanTests {
    static let noCode = "This image holds no QR code that could be read; take a sharper photo from closer, with the whole code in the picture and no glare on the screen, or type the code the sending device shows instead.\n"

    /// A QR as `handoff qr --png` draws it, then "photographed": rotated, blurred, saved as JPEG.
    static func photo(of code: String, in scratch: Scratch, name: String = "photo.jpg") async throws -> URL {
        let drawn = scratch.file("code.png")
        let qr = try await HandoffProcess.run(["qr", "--png", drawn.path, "--scale", "6"], stdin: code + "\n")
        try #require(qr.status == 0, "\(qr.stderr)")
        let photo = scratch.file(name)
        try convert([drawn.path, "-background", "white", "-rotate", "12", "-blur", "0x1", "-quality", "70", photo.path])
        return photo
    }

    static func convert(_ arguments: [String]) throws { try PhotoLab.convert(arguments) }

    static func write(_ bytes: [UInt8], _ name: String, in scratch: Scratch) throws -> URL {
        let file = scratch.file(name)
        try Data(bytes).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    @Test func receiveReadsTheCodeFromAPhotoOfTheSendersQR() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The photo is made after the sender started: the longest lifetime leaves room for a busy machine.
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let photo = try await Self.photo(of: code, in: scratch)
        // Nothing is written to the receiver's standard input but the answers.
        let receiver = try HandoffProcess(scratch.receiveArguments(["--scan", photo.path]))
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.stdout.hasPrefix("Read the transfer code from the QR code in \(photo.path).\nTransfer "))
        #expect(received.stdout.hasSuffix("Done: the account was imported.\n"))
        #expect(!received.stdout.contains("Transfer code (shown by the sending device"), "no prompt for the code")
        #expect(!received.all.contains(code.dropFirst(3).prefix(17)), "the code itself is never printed")
        // convert made the photo readable by everyone: the person is told, as for a code file.
        #expect(received.stderr.contains("Warning: the image \(photo.path) is readable by other users, who could use the transfer code in it before you; restrict it with 'chmod 600 \(photo.path)', and delete it after the transfer.\n"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func aPhotoOfAnExpiredCodeEndsAsForATypedOne() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (_, payload) = try Scratch.code(expiresIn: -40)
        let image = try Self.write(PNGQRRenderer(scale: 4).render(try QRMatrix(payload: payload)), "expired.png", in: scratch)
        // The process reads the clock once, somewhere between these two readings.
        let before = Int(Date().timeIntervalSince1970) - Int(payload.expiry)
        let result = try await HandoffProcess.run(scratch.receiveArguments(["--scan", image.path]))
        let after = Int(Date().timeIntervalSince1970) - Int(payload.expiry)
        #expect(result.status == 66)
        #expect((before...after).map(CLIExpiryTests.expiredLongAgo).contains(result.stderr), "\(result.stderr)")
        #expect(!result.stderr.contains("Warning: the image"), "a 0600 image gets no warning")
    }

    /// Each picture that holds no usable transfer code: its sentence (standard error, alone)
    /// and exit 65, as for a bad typed code, before anything is connected or stored.
    @Test func picturesWithoutATransferCodeAreRefusedWithTheirSentence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = try Self.write(PNGQRRenderer(scale: 4).render(try QRMatrix(payload: try Scratch.validCode().payload)), "first.png", in: scratch)
        let second = try Self.write(PNGQRRenderer(scale: 4).render(try QRMatrix(payload: try Scratch.validCode().payload)), "second.png", in: scratch)
        try Self.convert([first.path, second.path, "+append", scratch.file("two.png").path])
        try Self.convert(["-size", "400x300", "xc:white", scratch.file("white.png").path])
        let menu = try Self.write(PNGQRRenderer(scale: 4).render(try QRMatrix(automaticallySegmenting: "https://example.org/menu")), "menu.png", in: scratch)
        let damaged = try Self.write(PNGQRRenderer(scale: 4).render(try QRMatrix(automaticallySegmenting: "AH:1234")), "damaged.png", in: scratch)
        let text = try Self.write(Array("AH:0123".utf8), "code.png", in: scratch)
        let png = PNGQRRenderer(scale: 4).render(try QRMatrix(payload: try Scratch.validCode().payload))
        let cut = try Self.write(Array(png.prefix(png.count / 2)), "cut.png", in: scratch)
        let missing = scratch.file("missing.jpg")
        let cases: [(URL, String)] = [
            (scratch.file("white.png"), Self.noCode),
            (scratch.file("two.png"), "This image holds 2 different QR codes, so it is not clear which one to use; photograph only the code the sending device shows (cover or crop the others).\n"),
            (menu, "This image holds a QR code with a web address, not a transfer code (those start with AH: and are shown by the sending device); photograph the code the sending device shows.\n"),
            (damaged, "This image holds a QR code that starts like a transfer code but is not a valid one. This code is damaged or incomplete; take the code the sending device shows again (paste its whole line, or photograph it again with --scan).\n"),
            (text, "The file \(text.path) is neither a PNG nor a JPEG image; save or convert the photo as PNG or JPEG, then try again.\n"),
            (cut, "The PNG image \(cut.path) is damaged or incomplete (libpng: read beyond end of data); take or export the photo again as PNG or JPEG.\n"),
            (missing, "The image \(missing.path) cannot be read: the file or folder does not exist (ENOENT); check the path and its permissions.\n"),
        ]
        for (image, sentence) in cases {
            let result = try await HandoffProcess.run(scratch.receiveArguments(["--scan", image.path]))
            #expect(result.status == 65, "\(image.lastPathComponent): \(result.stderr)")
            #expect(result.stderr.hasSuffix(sentence), "\(image.lastPathComponent)")
            #expect(result.stdout.isEmpty, "\(image.lastPathComponent): \(result.stdout)")
        }
        #expect(await scratch.storeSnapshot() == [:])
    }

    @Test func noCameraIsSaidInASentence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let device = "/dev/video-handoff-test"
        let result = try await HandoffProcess.run(scratch.receiveArguments(["--camera", device]))
        #expect(result.status == 70)
        #expect(result.stderr == "There is no camera at \(device); connect one, or name another device, or take a photo of the QR code and read it from the file, or type the code the sending device shows.\n")
        #expect(result.stdout.isEmpty, "nothing asks the person to hold up the code: \(result.stdout)")
    }

    /// `--camera` alone names the first camera; the test machines have none.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/video0"), "this machine has a camera"))
    func cameraWithoutADeviceUsesTheFirstCamera() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for arguments in [["--camera"], ["--camera", "--no-validation"], ["--camera="]] {
            let result = try await HandoffProcess.run(["receive", "--store", scratch.store.path, "--no-local-auth"] + arguments)
            #expect(result.status == 70, "\(arguments)")
            #expect(result.stderr.hasPrefix("There is no camera at /dev/video0; "), "\(arguments): \(result.stderr)")
        }
    }

    @Test func oneSourceOfTheCodeAtATime() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases: [([String], String)] = [
            (["--scan", "a.png", "--camera"], "--scan and --camera are two ways to read the code; choose one."),
            (["--scan", "a.png", "--code-file", "code.txt"], "--scan reads the transfer code, so --code-file cannot be given too; choose one."),
            (["--camera", "/dev/video0", "-"], "--camera reads the transfer code, so '-' cannot be given too; choose one."),
        ]
        for (arguments, sentence) in cases {
            let result = try await HandoffProcess.run(scratch.receiveArguments(arguments))
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == sentence + " Run 'handoff help receive' to see how to use it.\n", "\(arguments)")
        }
    }
}
