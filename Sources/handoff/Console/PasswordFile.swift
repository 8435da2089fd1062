#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// Reads a password file straight into guarded memory: the first line, without its line
/// ending. Warns when other users can read the file.
enum PasswordFile {
    static func read(_ path: String, maximumByteCount: Int, console: Console) throws(CLIError) -> SecretBytes? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIError("The password file \(path) cannot be opened; check the path and its permissions.", exitCode: .invalidInput)
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & 0o077 != 0 {
            console.error("Warning: the password file \(path) is readable by other users; restrict it with 'chmod 600 \(path)'.")
        }
        let capacity = maximumByteCount + 2
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0)
        defer {
            buffer.update(repeating: 0)
            buffer.deallocate()
        }
        var count = 0
        while count < capacity {
            let got = systemRead(descriptor, buffer.baseAddress! + count, capacity - count)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw CLIError("The password file \(path) cannot be read; check its permissions.", exitCode: .invalidInput)
            }
            if got == 0 { break }
            count += got
        }
        // Keep the first line only.
        if let newline = buffer[0..<count].firstIndex(of: 0x0A) { count = newline }
        if count > 0, buffer[count - 1] == 0x0D { count -= 1 }
        guard count <= maximumByteCount else {
            throw CLIError("The password in \(path) is longer than \(maximumByteCount) bytes, which the transfer cannot carry.", exitCode: .invalidInput)
        }
        guard count > 0 else { return nil }
        return SecretBytes(copying: UnsafeBufferPointer(rebasing: buffer[0..<count]))
    }

    private static func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, pointer, count)
        #else
        Darwin.read(descriptor, pointer, count)
        #endif
    }
}
