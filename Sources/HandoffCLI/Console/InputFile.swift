#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// Opens an input file the person named (a password or a transfer code), with a clear
/// sentence for each way it can be wrong, and never a silent hang: a named pipe is announced
/// before the program waits for its writer.
enum InputFile {
    /// Opens `path` for reading.
    ///
    /// - Throws: ``CLIError`` (65) for a missing file, a directory, a device, or no permission.
    static func open(_ path: String, what: String, console: Console) throws(CLIError) -> Int32 {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CLIError("The \(what) file \(path) does not exist; check the path.", exitCode: .invalidInput)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw CLIError("\(path) is a directory; give the path of the file that holds the \(what).", exitCode: .invalidInput)
        case S_IFIFO:
            console.error("Waiting for another program to write the \(what) into the named pipe \(path) (Ctrl-C to stop)...")
        default:
            throw CLIError("\(path) is not a regular file or a named pipe; give the path of the file that holds the \(what).", exitCode: .invalidInput)
        }
        // A named pipe's open waits for its writer.
        let descriptor = BlockingCall.retryingInterrupted("open") { openFile(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw CLIError("The \(what) file \(path) cannot be opened (\(String(cString: strerror(errno)))); check its permissions.", exitCode: .invalidInput)
        }
        return descriptor
    }

    /// Reads the first line of `path` (without its line ending) into a plain buffer. For
    /// non-secret inputs only (the transfer code); passwords use ``PasswordFile``.
    static func readFirstLine(_ path: String, what: String, maximumByteCount: Int, console: Console) throws(CLIError) -> [UInt8] {
        let descriptor = try open(path, what: what, console: console)
        defer { close(descriptor) }
        warnIfOthersCanRead(descriptor, path: path, what: what, console: console)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count <= maximumByteCount {
            let count = BlockingCall.read(descriptor, into: &byte, count: 1)
            guard count == 1, byte != 0x0A else { break }
            bytes.append(byte)
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return bytes
    }

    /// A secret file (a password, a transfer code) that group or others can read: another
    /// local user could use it first, so the person is told how to close it.
    static func warnIfOthersCanRead(_ descriptor: Int32, path: String, what: String, console: Console) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_mode & 0o077 != 0 else { return }
        let risk = what == "transfer code" ? ", who could use the code before you" : ""
        console.error("Warning: the \(what) file \(path) is readable by other users\(risk); restrict it with 'chmod 600 \(path)'.")
    }
}

private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}
