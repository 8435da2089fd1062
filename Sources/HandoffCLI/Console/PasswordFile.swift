#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// Reads a password file straight into guarded memory: the first line, without its line
/// ending. Warns when other users can read the file; says so before waiting on a named pipe.
enum PasswordFile {
    static func read(_ path: String, maximumByteCount: Int, console: Console) throws(CLIError) -> SecretBytes? {
        let descriptor = try InputFile.open(path, what: .password, console: console)
        defer { close(descriptor) }
        InputFile.warnIfOthersCanRead(descriptor, path: path, what: .password, console: console)
        let capacity = maximumByteCount + 2
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        defer {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            buffer.deallocate()
        }
        var count = 0
        while count < capacity {
            let got = BlockingCall.read(descriptor, into: buffer.baseAddress! + count, count: capacity - count)
            guard got >= 0 else {
                throw CLIError(sentenceCatalog.sentence("passwordFile.unreadable", .text(path), .text(String(cString: strerror(errno))), in: .cli),
                               exitCode: .invalidInput)
            }
            if got == 0 { break }
            count += got
            if buffer[0..<count].contains(0x0A) { break }
        }
        // Keep the first line only.
        if let newline = buffer[0..<count].firstIndex(of: 0x0A) { count = newline }
        if count > 0, buffer[count - 1] == 0x0D { count -= 1 }
        guard count <= maximumByteCount else {
            throw CLIError(sentenceCatalog.sentence("passwordFile.tooLong", .text(path), .number(maximumByteCount), in: .cli), exitCode: .invalidInput)
        }
        guard count > 0 else { return nil }
        do { return try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) } catch {
            throw CLIError(error.sentence(in: .cli), exitCode: .failure)
        }
    }
}
