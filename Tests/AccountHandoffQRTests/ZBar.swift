import AccountHandoffTestSupport
import Foundation
import Testing

/// Runs the real decoder, `zbarimg` from Debian's zbar-tools, on an image file.
enum ZBar {
    static let executable = URL(fileURLWithPath: "/usr/bin/zbarimg")

    struct Missing: Error, CustomStringConvertible {
        var description: String { "zbarimg is not installed; run Scripts/setup.sh (it installs zbar-tools)." }
    }

    /// The decoded texts of every QR symbol in the image (empty when none was found).
    static func decode(_ file: URL) throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { throw Missing() }
        let result = try ChildProcess.run(executable, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A fresh scratch directory, removed by the caller.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ah-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
