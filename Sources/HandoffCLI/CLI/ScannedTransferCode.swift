#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffScan

/// `handoff receive --scan IMAGE` and `--camera [DEVICE]`: the transfer code read from a photo
/// or screenshot of the sending device's QR code, or from a camera, instead of standard input
/// (which then carries only the answers). The scan runs on a thread of its own.
enum ScannedTransferCode {
    /// Where the code comes from.
    case typedOrPiped
    case image(path: String)
    case camera(device: String)

    static let scanOption = "--scan"
    static let cameraOption = "--camera"
    /// How long the camera looks for a code.
    static let cameraSeconds = 60

    /// `--camera` without a device takes the default one: the arguments with it written out,
    /// so that the parser sees a value. A device is the next argument unless that is an option.
    static func withCameraDevice(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            guard argument == cameraOption else {
                result.append(argument)
                continue
            }
            if index < arguments.count, !arguments[index].hasPrefix("-") {
                result += [argument, arguments[index]]
                index += 1
            } else {
                result.append("\(cameraOption)=\(QRCameraScanner.defaultDevice)")
            }
        }
        return result
    }

    /// The source the options name; refuses two sources at once.
    init(_ parsed: ParsedArguments) throws(CLIError) {
        let path = parsed.value(Self.scanOption)
        let device = parsed.value(Self.cameraOption)
        let others = [parsed.value("--code-file") != nil ? "--code-file" : nil, parsed.positionals.first == "-" ? "'-'" : nil].compactMap { $0 }
        switch (path, device) {
        case (nil, nil):
            self = .typedOrPiped
            return
        case (.some, .some):
            throw .usage(sentenceCatalog.sentence("scan.both", in: .cli), command: "receive")
        case (.some(let path), nil):
            self = .image(path: path)
        case (nil, .some(let device)):
            self = .camera(device: device.isEmpty ? QRCameraScanner.defaultDevice : device)
        }
        if let other = others.first {
            let option = if case .image = self { Self.scanOption } else { Self.cameraOption }
            throw .usage(sentenceCatalog.sentence("scan.conflicts", .text(option), .text(other), in: .cli), command: "receive")
        }
    }

    /// The code from the image or the camera, or else as ``TransferCode/read(_:input:console:)``
    /// reads it.
    ///
    /// - Throws: ``CLIError`` with 65 for an image that holds no transfer code (or is not a
    ///   readable PNG or JPEG), 70 when zbar or the camera fails.
    func transferCode(_ parsed: ParsedArguments, input: StandardInput, console: Console) async throws(CLIError) -> SessionPayload {
        switch try await entry(parsed, input: input, console: console) {
        case .transferCode(let payload): return payload
        case .typed(let code):
            code.wipe()
            throw CLIError(sentenceCatalog.sentence("scan.typedCodeInQR", in: .cli), exitCode: .invalidInput)
        }
    }

    /// The code from the image or the camera, or else typed or piped: a transfer code, or the
    /// short typed code (``TransferCode/readEntry(_:input:console:)``).
    func entry(_ parsed: ParsedArguments, input: StandardInput, console: Console) async throws(CLIError) -> TransferCode.Entry {
        switch self {
        case .typedOrPiped:
            return try await blockingStep { () throws(CLIError) in try TransferCode.readEntry(parsed, input: input, console: console) }
        case .image(let path):
            Self.warnIfOthersCanRead(path, console: console)
            do {
                let payload = try await QRImageScanner().transferCode(inImageAt: path)
                console.line(sentenceCatalog.sentence("scan.readFromImage", .text(path), in: .cli))
                return .transferCode(payload)
            } catch {
                throw CLIError(error.sentence(in: .cli), exitCode: Self.exitCode(error))
            }
        case .camera(let device):
            let camera = QRCameraScanner(device: device, timeoutSeconds: Self.cameraSeconds)
            do {
                return .transferCode(try await camera.transferCode {
                    console.line(sentenceCatalog.sentence("scan.holdToCamera", .text(device), .number(Self.cameraSeconds), in: .cli))
                })
            } catch {
                throw CLIError(error.sentence(in: .cli), exitCode: Self.exitCode(error))
            }
        }
    }

    static func exitCode(_ error: QRScanError) -> ExitCode {
        switch error {
        case .image, .refused: .invalidInput
        case .scannerUnavailable, .camera: .failure
        }
    }

    /// The picture shows the transfer code, a secret until the transfer ends, as a code file
    /// holds it (``InputFile/warnIfOthersCanRead(_:path:what:console:)``).
    private static func warnIfOthersCanRead(_ path: String, console: Console) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 != 0 else { return }
        console.error(sentenceCatalog.sentence("scan.imageReadable", .text(path), in: .cli))
    }
}

extension CommandOption {
    static let scan = CommandOption(ScannedTransferCode.scanOption, "IMAGE",
        sentenceCatalog.sentence("manual.scan", in: .cli))
    static let camera = CommandOption(ScannedTransferCode.cameraOption, "[DEVICE]",
        sentenceCatalog.sentence("manual.camera", .text(QRCameraScanner.defaultDevice), .number(ScannedTransferCode.cameraSeconds), in: .cli))
}

extension CommandManual {
    /// The note of `handoff receive` on reading the code from a picture.
    static var scanNote: String {
        let limits = ImageLimits.standard
        return sentenceCatalog.sentence("manual.scanNote", .number(limits.maximumFileByteCount >> 20), .number(limits.maximumPixelCount / 1_000_000), in: .cli)
    }
}
