import AccountHandoff
import Foundation
import Testing

@Suite struct CLIInspectAndQRTests {
    @Test func inspectShowsTheFieldsButNotTheChallenge() throws {
        let (text, payload) = try Scratch.validCode()
        let result = try HandoffProcess.run(["inspect", text])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  Transfer ID: \(payload.transferID)\n"))
        #expect(result.stdout.contains("  Sender public key: \(Hex.encode(payload.senderPublicKey.bytes))\n"))
        #expect(result.stdout.contains("  Rendezvous: 127.0.0.1:9 with tag 010203040506 (8 bytes)\n"))
        #expect(result.stdout.contains("  Challenge: 16 bytes (not shown)\n"))
        #expect(!result.stdout.contains(Hex.encode(payload.challenge)))
        #expect(result.stdout.contains("The code is valid for "))
    }

    @Test func inspectReadsTheCodeFromStandardInput() throws {
        let (text, payload) = try Scratch.validCode()
        let result = try HandoffProcess.run(["inspect", "-"], stdin: text + "\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("  Transfer ID: \(payload.transferID)\n"))
    }

    @Test func inspectRefusesAnExpiredCodeWithExitCode66() throws {
        let result = try HandoffProcess.run(["inspect", try Scratch.expiredCode()])
        #expect(result.status == 66)
        #expect(result.stdout.contains("  Expiry: "))
        #expect(result.stderr.hasPrefix("This transfer code expired 20 min "))
        #expect(result.stderr.hasSuffix(" ago; start a new transfer on the sending device.\n"))
    }

    @Test(arguments: [
        ("XY:123", "The transfer code is invalid: This is not an AccountHandoff code; scan the code shown by the sending device.\n"),
        ("AH:12a", "The transfer code is invalid: after AH: it must have only digits, in a length the code format produces; copy the whole code again.\n"),
        ("AH:001", "The transfer code is invalid: its intent field is truncated or malformed; copy the whole code, starting with AH:, again.\n"),
        ("AH:99999999999999999", "The transfer code is invalid: This code is not in canonical form; scan the code shown by the sending device again.\n"),
    ])
    func inspectNamesTheExactReason(code: String, message: String) throws {
        let result = try HandoffProcess.run(["inspect", code])
        #expect(result.status == 65)
        #expect(result.stderr == message)
    }

    @Test func qrWritesImagesThatScan() throws {
        let (text, payload) = try Scratch.validCode()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let svg = scratch.directory.appendingPathComponent("code.svg")
        let png = scratch.directory.appendingPathComponent("code.png")
        let result = try HandoffProcess.run(["qr", text, "--svg", svg.path, "--png", png.path, "--scale", "4"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("QR version 5 (37x37 modules), error correction M.\n"))
        #expect(!result.stdout.contains("\u{2588}"), "no terminal drawing unless --terminal")
        for file in [svg, png] {
            let decoded = try zbar(file)
            #expect(decoded == [text], "\(file.lastPathComponent)")
            #expect(try SessionPayload(text: decoded.first ?? "") == payload)
        }
    }

    @Test func qrDrawsOnTheTerminalByDefault() throws {
        let (text, _) = try Scratch.validCode()
        let result = try HandoffProcess.run(["qr", text, "--ecc", "H", "--qr-style", "light"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\u{2588}"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.hasSuffix("QR version 8 (49x49 modules), error correction H.\n"))
    }

    private func zbar(_ file: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
