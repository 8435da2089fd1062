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
    /// What a file holds, for the sentences about it.
    enum Content {
        case transferCode
        case password
    }

    /// Opens `path` for reading.
    ///
    /// - Throws: ``CLIError`` (65) for a missing file, a directory, a device, or no permission.
    static func open(_ path: String, what: Content, console: Console) throws(CLIError) -> Int32 {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CLIError(what == .password ? sentenceCatalog.sentence("inputFile.missing.password", .text(path), in: .cli)
                                              : sentenceCatalog.sentence("inputFile.missing.transferCode", .text(path), in: .cli), exitCode: .invalidInput)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw CLIError(what == .password ? sentenceCatalog.sentence("inputFile.directory.password", .text(path), in: .cli)
                                              : sentenceCatalog.sentence("inputFile.directory.transferCode", .text(path), in: .cli), exitCode: .invalidInput)
        case S_IFIFO:
            console.error(what == .password ? sentenceCatalog.sentence("inputFile.pipe.password", .text(path), in: .cli)
                                             : sentenceCatalog.sentence("inputFile.pipe.transferCode", .text(path), in: .cli))
        default:
            throw CLIError(what == .password ? sentenceCatalog.sentence("inputFile.notRegular.password", .text(path), in: .cli)
                                              : sentenceCatalog.sentence("inputFile.notRegular.transferCode", .text(path), in: .cli), exitCode: .invalidInput)
        }
        // A named pipe's open waits for its writer.
        let descriptor = BlockingCall.retryingInterrupted("open") { openFile(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let reason = SentenceArgument.text(String(cString: strerror(errno)))
            throw CLIError(what == .password ? sentenceCatalog.sentence("inputFile.cannotOpen.password", .text(path), reason, in: .cli)
                                             : sentenceCatalog.sentence("inputFile.cannotOpen.transferCode", .text(path), reason, in: .cli), exitCode: .invalidInput)
        }
        return descriptor
    }

    /// Reads the first line of `path` (without its line ending) into a plain buffer. For
    /// non-secret inputs only (the transfer code); passwords use ``PasswordFile``.
    static func readFirstLine(_ path: String, what: Content, maximumByteCount: Int, console: Console) throws(CLIError) -> [UInt8] {
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
    static func warnIfOthersCanRead(_ descriptor: Int32, path: String, what: Content, console: Console) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_mode & 0o077 != 0 else { return }
        console.error(what == .password ? sentenceCatalog.sentence("inputFile.readable.password", .text(path), in: .cli)
                                        : sentenceCatalog.sentence("inputFile.readable.transferCode", .text(path), in: .cli))
    }
}

private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}
