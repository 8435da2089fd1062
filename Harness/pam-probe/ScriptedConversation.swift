#if canImport(Glibc)
import AccountHandoff
import AccountHandoffLocalAuthentication
import Foundation
import Glibc

/// Answers each question with the next line of standard input and prints every prompt.
final class ScriptedConversation: PAMConversation, @unchecked Sendable {
    // Safety of @unchecked Sendable: `prompts` and `exposedIn` are touched only under `lock`;
    // the authenticator calls `answer` once at a time.
    private let lock = NSLock()
    private let cancelAtPrompt: Int?
    private var prompts = 0
    private var exposedIn: Set<String> = []

    init(cancelAtPrompt: Int?) {
        self.cancelAtPrompt = cancelAtPrompt
    }

    /// `none`, or where an answer was found: `argv`, `environment`.
    var exposure: String {
        lock.withLock { exposedIn.isEmpty ? "none" : exposedIn.sorted().joined(separator: ",") }
    }

    func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? {
        let number = lock.withLock {
            prompts += 1
            return prompts
        }
        switch prompt {
        case .secret(let text): say("prompt secret \(text)")
        case .text(let text): say("prompt text \(text)")
        case .error(let text): say("prompt error \(text)")
        case .info(let text): say("prompt info \(text)")
        }
        if number == cancelAtPrompt {
            // The conversation runs on the authenticating task: cancel it, then answer anyway.
            withUnsafeCurrentTask { $0?.cancel() }
        }
        guard prompt.isQuestion else { return .shown }
        // Standard input is a pipe the test filled and closed; reading it blocks all the same,
        // so it happens on the I/O pool.
        guard let line = await BlockingIOPool.shared.run({ _ in StandardInputLine.read() }) else { return nil }
        checkExposure(of: line)
        if case .text = prompt {
            defer { line.wipe() }
            return .text(line.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
        }
        return .secret(line)
    }

    /// Records whether `answer` appears in this process's arguments or environment.
    private func checkExposure(of answer: SecretBytes) {
        guard answer.count > 0 else { return }
        for (name, file) in [("argv", "/proc/self/cmdline"), ("environment", "/proc/self/environ")] {
            guard let contents = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
            let found = answer.withUnsafeBytes { needle in contents.withUnsafeBytes { Self.contains($0, needle) } }
            if found { lock.withLock { _ = exposedIn.insert(name) } }
        }
    }

    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            (0..<needle.count).allSatisfy { haystack[start + $0] == needle[$0] }
        }
    }
}

/// Reads one line of standard input straight into guarded memory, a byte at a time, so the
/// answer never passes through a Swift string or array.
enum StandardInputLine {
    static let capacity = 4096

    /// The next line without its newline; `nil` at the end of input.
    static func read() -> SecretBytes? {
        do {
            let buffer = try SecretBytes(zeroedCount: capacity)
            defer { buffer.wipe() }
            let (length, sawAnything) = buffer.withUnsafeMutableBytes { storage -> (Int, Bool) in
                var length = 0
                var byte: UInt8 = 0
                var sawAnything = false
                while true {
                    let got = BlockingCall.read(0, into: &byte, count: 1)
                    guard got == 1 else {
                        if got < 0 { FileHandle.standardError.write(Data("pam-probe: reading standard input failed, errno \(errno)\n".utf8)) }
                        break
                    }
                    sawAnything = true
                    if byte == UInt8(ascii: "\n") { break }
                    guard length < storage.count else { fail("an answer longer than \(capacity) bytes") }
                    storage[length] = byte
                    length += 1
                }
                byte = 0
                return (length, sawAnything)
            }
            guard sawAnything else { return nil }
            return try buffer.withUnsafeBytes { (bytes) throws(HandoffError) in
                try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes.prefix(length)))
            }
        } catch {
            fail("no guarded memory: \(error)")
        }
    }
}
#endif
