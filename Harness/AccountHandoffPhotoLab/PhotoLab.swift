import AccountHandoff
import AccountHandoffScan
import AccountHandoffTestSupport
import Foundation

/// The photo experiment: every code of ``PhotoCode/all()`` drawn by `handoff qr --png`, spoilt
/// by every distortion of ``PhotoDistortion/all`` with ImageMagick (`convert`, one thread so
/// noise is the same on every machine), and read by ``QRImageScanner`` and by `zbarimg`.
package struct PhotoLab {
    package static let convert = URL(fileURLWithPath: "/usr/bin/convert")
    package static let zbarimg = URL(fileURLWithPath: "/usr/bin/zbarimg")

    /// What a reader made of one picture.
    package enum Reading: Sendable, Equatable {
        /// The right transfer code.
        case read
        /// A transfer code, but another one: must never happen.
        case wrongCode
        /// No QR code found.
        case noCode
        /// Something else (several codes, a code that is not ours, a file error): the sentence.
        case other(String)
    }

    /// One picture and both readings.
    package struct Case: Sendable {
        package let distortion: PhotoDistortion
        package let code: PhotoCode
        package let ours: Reading
        package let zbarimg: Reading
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The `handoff` binary that draws the codes.
    package let handoff: URL
    /// Where the pictures are written.
    package let directory: URL

    package init(handoff: URL, directory: URL) {
        self.handoff = handoff
        self.directory = directory
    }

    /// Runs `distortions` (default: the fixed set) on every code; `progress` hears each case.
    package func run(_ distortions: [PhotoDistortion] = PhotoDistortion.all,
                     progress: (Case) -> Void = { _ in }) throws -> [Case] {
        try Self.checkTools()
        var cases: [Case] = []
        for (index, code) in try PhotoCode.all().enumerated() {
            let base = directory.appendingPathComponent("code-\(index).png")
            try draw(code, to: base)
            let side = try Self.side(of: base)
            for (number, distortion) in distortions.enumerated() {
                let picture = directory.appendingPathComponent("code-\(index)-\(number).\(distortion.fileExtension)")
                try photograph(base, distortion.operators(side), to: picture)
                let result = Case(distortion: distortion, code: code, ours: ours(picture, expected: code.text),
                                  zbarimg: try zbarimg(picture, expected: code.text))
                cases.append(result)
                progress(result)
            }
        }
        return cases
    }

    static func checkTools() throws {
        let version = try? ChildProcess.run(convert, ["-version"])
        guard let version, String(decoding: version.stdout, as: UTF8.self).contains("ImageMagick") else {
            throw Failure(description: "ImageMagick's convert is not at /usr/bin/convert; run Scripts/setup.sh (it installs imagemagick).")
        }
        guard FileManager.default.isExecutableFile(atPath: zbarimg.path) else {
            throw Failure(description: "zbarimg is not installed; run Scripts/setup.sh (it installs zbar-tools).")
        }
    }

    /// `handoff qr --png FILE --scale S --ecc E`, the code on standard input.
    func draw(_ code: PhotoCode, to file: URL) throws {
        let result = try ChildProcess.run(handoff, ["qr", "--png", file.path, "--scale", "\(code.scale)", "--ecc", code.errorCorrection],
                                          input: Data((code.text + "\n").utf8))
        guard result.status == 0 else {
            throw Failure(description: "handoff qr failed: \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }

    /// `convert INPUT OPERATORS -depth 8 OUTPUT`: 8 bits, so blur and noise are not cut back to
    /// the 1-bit input's depth.
    func photograph(_ input: URL, _ operators: [String], to output: URL) throws {
        try Self.convert([input.path] + operators + ["-depth", "8", output.path])
    }

    /// Runs ImageMagick's `convert` with `arguments` on one thread (the same noise on every
    /// machine); the tests' pictures are made with it too.
    package static func convert(_ arguments: [String]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MAGICK_THREAD_LIMIT"] = "1"
        let result = try ChildProcess.run(Self.convert, arguments, environment: environment)
        guard result.status == 0 else {
            throw Failure(description: "convert \(arguments) failed: \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }

    static func side(of png: URL) throws -> Int {
        let bytes = try Data(contentsOf: png)
        // IHDR's width, big-endian, at bytes 16..<20.
        return bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }

    func ours(_ picture: URL, expected: String) -> Reading {
        do {
            let payload = try QRImageScanner().transferCodeBlocking(inImageAt: picture.path)
            return payload.text == expected ? .read : .wrongCode
        } catch .refused(.noCode) {
            return .noCode
        } catch {
            return .other(error.description)
        }
    }

    func zbarimg(_ picture: URL, expected: String) throws -> Reading {
        let result = try ChildProcess.run(Self.zbarimg, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", picture.path])
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        switch lines.count {
        case 0: return .noCode
        case 1: return lines[0] == expected ? .read : (lines[0].hasPrefix("AH:") ? .wrongCode : .other("not a transfer code"))
        default: return .other("\(lines.count) codes")
        }
    }
}
