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
    package static func cause(_ code: Int32) -> String { cause(code, in: .english) }

    /// The cause of `code` in `language`; the C library's own words (English) for a code
    /// not named here.
    package static func cause(_ code: Int32, in language: HandoffLanguage) -> String {
        if let key = knownKey(code) {
            let words = sentenceCatalog.sentence(key, in: language)
            return sentenceCatalog.sentence("errno.cause", .text(words), .text(String(key.dropFirst("errno.".count))), in: language)
        }
        return systemWords(code, in: language)
    }

    /// The catalog keys of the causes the library's calls meet: `errno.` and the C name.
    private static func knownKey(_ code: Int32) -> String? {
        switch code {
        case EPERM: "errno.EPERM"
        case ENOENT: "errno.ENOENT"
        case EINTR: "errno.EINTR"
        case EIO: "errno.EIO"
        case ENXIO: "errno.ENXIO"
        case EBADF: "errno.EBADF"
        case EAGAIN: "errno.EAGAIN"
        case ENOMEM: "errno.ENOMEM"
        case EACCES: "errno.EACCES"
        case EBUSY: "errno.EBUSY"
        case EEXIST: "errno.EEXIST"
        case EXDEV: "errno.EXDEV"
        case ENODEV: "errno.ENODEV"
        case ENOTDIR: "errno.ENOTDIR"
        case EISDIR: "errno.EISDIR"
        case EINVAL: "errno.EINVAL"
        case ENFILE: "errno.ENFILE"
        case EMFILE: "errno.EMFILE"
        case EFBIG: "errno.EFBIG"
        case ENOSPC: "errno.ENOSPC"
        case EROFS: "errno.EROFS"
        case EMLINK: "errno.EMLINK"
        case EPIPE: "errno.EPIPE"
        case ERANGE: "errno.ERANGE"
        case ENAMETOOLONG: "errno.ENAMETOOLONG"
        case ENOLCK: "errno.ENOLCK"
        case ENOSYS: "errno.ENOSYS"
        case ENOTEMPTY: "errno.ENOTEMPTY"
        case ELOOP: "errno.ELOOP"
        case EDQUOT: "errno.EDQUOT"
        case EMSGSIZE: "errno.EMSGSIZE"
        case EOPNOTSUPP: "errno.EOPNOTSUPP"
        case EAFNOSUPPORT: "errno.EAFNOSUPPORT"
        case EADDRINUSE: "errno.EADDRINUSE"
        case EADDRNOTAVAIL: "errno.EADDRNOTAVAIL"
        case ENETDOWN: "errno.ENETDOWN"
        case ENETUNREACH: "errno.ENETUNREACH"
        case ECONNABORTED: "errno.ECONNABORTED"
        case ECONNRESET: "errno.ECONNRESET"
        case ENOBUFS: "errno.ENOBUFS"
        case ENOTCONN: "errno.ENOTCONN"
        case ETIMEDOUT: "errno.ETIMEDOUT"
        case ECONNREFUSED: "errno.ECONNREFUSED"
        case EHOSTUNREACH: "errno.EHOSTUNREACH"
        default: nil
        }
    }

    /// The C library's own words for a code not listed above, with the code for support.
    private static func systemWords(_ code: Int32, in language: HandoffLanguage) -> String {
        let text = strerror(code).map { String(cString: $0) } ?? ""
        guard !text.isEmpty, !text.hasPrefix("Unknown error") else {
            return sentenceCatalog.sentence("errno.unnamed", .number(code), in: language)
        }
        return sentenceCatalog.sentence("errno.systemWords", .text(text.prefix(1).lowercased() + text.dropFirst()), .number(code), in: language)
    }
}
