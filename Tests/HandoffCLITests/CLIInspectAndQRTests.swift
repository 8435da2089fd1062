import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

@Suite(.startsProcesses) struct CLIInspectAndQRTests {
    @Test func inspectShowsTheFieldsButNotTheCommitment() async throws {
        let (text, payload) = try Scratch.validCode()
        let result = try await HandoffProcess.run(["inspect"], stdin: text + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  Protocol version: 4\n"))
        #expect(result.stdout.contains("  Transfer ID: \(payload.transferID) (derived from the code)\n"))
        #expect(result.stdout.contains("  Sender public key: \(Hex.encode(payload.senderPublicKey.bytes))\n"))
        #expect(result.stdout.contains("  Rendezvous: 127.0.0.1:9 (3 bytes)\n"))
        #expect(result.stdout.contains("  Commitment: 32 bytes (the QR secret, not shown)\n"))
        #expect(!result.stdout.contains(Hex.encode(payload.commitment)))
        #expect(!result.stdout.lowercased().contains(Hex.encode(payload.commitment).lowercased()))
        let verdict = try #require(result.stdout.split(separator: "\n").last)
        #expect(verdict.hasPrefix("The code is well formed and has not expired ("))
        #expect(verdict.hasSuffix(" left). This command cannot tell whether the sending device still waits for it: the code may have been used, rejected or cancelled, or changed in copying. 'handoff receive' finds out."))
    }

    @Test func inspectReadsTheCodeFromADashOrACodeFile() async throws {
        let (text, payload) = try Scratch.validCode()
        let dash = try await HandoffProcess.run(["inspect", "-"], stdin: text + "\n")
        #expect(dash.status == 0)
        #expect(dash.stdout.contains("  Transfer ID: \(payload.transferID) (derived from the code)\n"))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.file("code.txt")
        try Data((text + "\r\n").utf8).write(to: file)
        let fromFile = try await HandoffProcess.run(["inspect", "--code-file", file.path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout.contains("  Transfer ID: \(payload.transferID) (derived from the code)\n"))
    }

    @Test func inspectRefusesAnExpiredCodeWithExitCode66() async throws {
        let result = try await HandoffProcess.run(["inspect"], stdin: try Scratch.expiredCode() + "\n")
        #expect(result.status == 66)
        #expect(result.stdout.contains("  Expiry: "))
        #expect(result.stderr.hasPrefix("This transfer code expired 20 min "))
        #expect(result.stderr.hasSuffix(" ago; ask the sending device for a new code.\n"))
    }

    @Test(arguments: [
        ("XY:123", "This is not a transfer code; paste the transfer code the sending device shows (one line of about 180 characters starting with AH:).\n"),
        ("AH:12a", "The transfer code is damaged or incomplete (it has 6 characters; a whole code is one line of about 180 characters starting with AH:); copy the whole line the sending device shows, without line breaks, and paste it again.\n"),
        ("AH:001", "The transfer code is invalid. This code or message uses protocol version 1, from an older version of the app, so only the sending device needs updating; update the app there, then ask the sending device for a new code.\n"),
        ("AH:002", "The transfer code is invalid. This code or message uses protocol version 2, from an older version of the app, so only the sending device needs updating; update the app there, then ask the sending device for a new code.\n"),
        ("AH:003", "The transfer code is invalid. This code or message uses protocol version 3, from an older version of the app, so only the sending device needs updating; update the app there, then ask the sending device for a new code.\n"),
        ("AH:009", "The transfer code is invalid. This code or message uses protocol version 9, newer than this app's (4), so only this device needs updating; update the app here, then ask the sending device for a new code.\n"),
        ("AH:99999999999999999", "The transfer code is damaged or incomplete (it has 20 characters; a whole code is one line of about 180 characters starting with AH:); copy the whole line the sending device shows, without line breaks, and paste it again.\n"),
    ])
    func inspectNamesTheExactReason(code: String, message: String) async throws {
        let result = try await HandoffProcess.run(["inspect"], stdin: code + "\n")
        #expect(result.status == 65)
        #expect(result.stderr == message)
    }

    /// A version 1, 2 or 3 code given to `receive`: only the sending device is behind.
    @Test(arguments: ["AH:001", "AH:002", "AH:003"])
    func anOlderCodeAtReceiveSaysOnlyTheSendingDeviceNeedsUpdating(code: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: code + "\n")
        #expect(result.status == 65)
        #expect(result.stderr == "The transfer code is invalid. This code or message uses protocol version \(code.last!), from an older version of the app, so only the sending device needs updating; update the app there, then ask the sending device for a new code.\n")
    }

    /// The six digits meant for the sending device, typed at `receive`: named as such.
    @Test(arguments: ["123456", "123 456"])
    func sixDigitsAtReceiveAreNamedAsTheSendingDevicesCode(typed: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: typed + "\n")
        #expect(result.status == 65)
        // `receive` also takes the typed code (Spec 12.5), so its sentence names both.
        #expect(result.stderr == "Those six digits look like the code for the sending device: type them there when it asks. Here, paste the transfer code the sending device shows (one line of about 180 characters starting with AH:), or type the 11-digit code beside its QR.\n")
    }

    /// Half a code (a line cut where a terminal wrapped it): its length and a whole code's shape.
    @Test func halfACodeAtReceiveSaysWhatAWholeCodeLooksLike() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let code = try Scratch.validCode().text
        #expect((150...210).contains(code.count), "a whole code is about 180 characters: \(code.count)")
        let half = String(code.prefix(80))
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: half + "\n")
        #expect(result.status == 65)
        #expect(result.stderr == "The transfer code is damaged or incomplete (it has 80 characters; a whole code is one line of about 180 characters starting with AH:); copy the whole line the sending device shows, without line breaks, and paste it again.\n")
    }

    /// `handoff qr` draws an expired code but says that nobody can use it (66).
    @Test func qrOfAnExpiredCodeSaysItExpired() async throws {
        let result = try await HandoffProcess.run(["qr"], stdin: try Scratch.expiredCode() + "\n")
        #expect(result.status == 66)
        #expect(result.stdout.contains("QR version "))
        #expect(result.stderr.hasPrefix("This transfer code expired 20 min "))
        #expect(result.stderr.hasSuffix(" s ago, so no receiving device can use the QR code drawn from it; ask the sending device for a new code.\n"))
    }

    @Test func noCodeOnStandardInputIsAUsageError() async throws {
        let result = try await HandoffProcess.run(["inspect"])
        #expect(result.status == 64)
        #expect(result.stderr == "No transfer code arrived on standard input; paste it when asked, pipe it in, or use --code-file FILE.\n")
    }

    @Test func qrWritesImagesThatScan() async throws {
        let (text, payload) = try Scratch.validCode()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let svg = scratch.file("code.svg")
        let png = scratch.file("code.png")
        let result = try await HandoffProcess.run(["qr", "--svg", svg.path, "--png", png.path, "--scale", "4"], stdin: text + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("QR version 5 (37x37 modules), error correction M.\n"))
        #expect(!result.stdout.contains("\u{2588}"), "no terminal drawing unless --terminal")
        for file in [svg, png] {
            let decoded = try zbar(file)
            #expect(decoded == [text], "\(file.lastPathComponent)")
            #expect(try SessionPayload(text: decoded.first ?? "") == payload)
        }
    }

    @Test func qrDrawsOnTheTerminalByDefault() async throws {
        let (text, _) = try Scratch.validCode()
        let result = try await HandoffProcess.run(["qr", "--ecc", "H", "--qr-style", "light"], stdin: text + "\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("\u{2588}"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.hasSuffix("QR version 8 (49x49 modules), error correction H.\n"))
    }

    private func zbar(_ file: URL) throws -> [String] {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["--raw", "-q", file.path])
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
