#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cause of a failed system call in words a person understands, for the sentences of
/// the library's errors: "permission denied (EACCES)" instead of an `errno` number. The C
/// name stays in parentheses for support; the sentence reads without it.
package enum SystemErrorWords {
    /// The cause of `code` (an `errno` value) as a lowercase clause, with its C name in
    /// parentheses when known, e.g. `no space left on the device (ENOSPC)`.
    package static func cause(_ code: Int32) -> String {
        if let (words, name) = known(code) { return "\(words) (\(name))" }
        return systemWords(code)
    }

    /// The words and C names of the causes the library's calls meet.
    private static func known(_ code: Int32) -> (String, String)? {
        switch code {
        case EPERM: ("the operation is not permitted", "EPERM")
        case ENOENT: ("the file or folder does not exist", "ENOENT")
        case EINTR: ("the call was interrupted", "EINTR")
        case EIO: ("the disk or device reported an input/output error", "EIO")
        case ENXIO: ("the device is not available", "ENXIO")
        case EBADF: ("a file handle was not valid", "EBADF")
        case EAGAIN: ("the resource is temporarily unavailable", "EAGAIN")
        case ENOMEM: ("the system is out of memory", "ENOMEM")
        case EACCES: ("permission denied", "EACCES")
        case EBUSY: ("the file or device is busy", "EBUSY")
        case EEXIST: ("the file already exists", "EEXIST")
        case EXDEV: ("the file would move to another file system", "EXDEV")
        case ENODEV: ("the device does not exist", "ENODEV")
        case ENOTDIR: ("a part of the path is not a folder", "ENOTDIR")
        case EISDIR: ("the path is a folder", "EISDIR")
        case EINVAL: ("an argument was not valid", "EINVAL")
        case ENFILE: ("the system has too many open files", "ENFILE")
        case EMFILE: ("this program has too many open files", "EMFILE")
        case EFBIG: ("the file is too large", "EFBIG")
        case ENOSPC: ("no space left on the device", "ENOSPC")
        case EROFS: ("the file system is read-only", "EROFS")
        case EMLINK: ("the file has too many links", "EMLINK")
        case EPIPE: ("the other end of the connection is closed", "EPIPE")
        case ERANGE: ("a value is out of range", "ERANGE")
        case ENAMETOOLONG: ("the file name is too long", "ENAMETOOLONG")
        case ENOLCK: ("no file lock is available", "ENOLCK")
        case ENOSYS: ("the system does not support this call", "ENOSYS")
        case ENOTEMPTY: ("the folder is not empty", "ENOTEMPTY")
        case ELOOP: ("the path runs through a symbolic link where none is allowed", "ELOOP")
        case EDQUOT: ("the disk quota is exceeded", "EDQUOT")
        case EMSGSIZE: ("the message is too long", "EMSGSIZE")
        case EOPNOTSUPP: ("the operation is not supported", "EOPNOTSUPP")
        case EAFNOSUPPORT: ("the address family is not supported", "EAFNOSUPPORT")
        case EADDRINUSE: ("the address is already in use", "EADDRINUSE")
        case EADDRNOTAVAIL: ("the address is not one of this machine", "EADDRNOTAVAIL")
        case ENETDOWN: ("the network is down", "ENETDOWN")
        case ENETUNREACH: ("the network is unreachable", "ENETUNREACH")
        case ECONNABORTED: ("the connection was aborted", "ECONNABORTED")
        case ECONNRESET: ("the connection was reset by the other side", "ECONNRESET")
        case ENOBUFS: ("the system ran out of network buffers", "ENOBUFS")
        case ENOTCONN: ("the socket is not connected", "ENOTCONN")
        case ETIMEDOUT: ("the operation timed out", "ETIMEDOUT")
        case ECONNREFUSED: ("the connection was refused", "ECONNREFUSED")
        case EHOSTUNREACH: ("the host is unreachable", "EHOSTUNREACH")
        default: nil
        }
    }

    /// The C library's own words for a code not listed above, with the code for support.
    private static func systemWords(_ code: Int32) -> String {
        let text = strerror(code).map { String(cString: $0) } ?? ""
        guard !text.isEmpty, !text.hasPrefix("Unknown error") else {
            return "a failure the system does not name (system code \(code))"
        }
        return text.prefix(1).lowercased() + text.dropFirst() + " (system code \(code))"
    }
}
