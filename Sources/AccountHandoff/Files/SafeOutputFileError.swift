#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why ``SafeOutputFile`` did not write a file. Nothing was changed at the target path in
/// any case but ``writeFailed(_:operation:errno:)`` after the rename (``SafeOutputFile``
/// says which).
public enum SafeOutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is at a path that is not a regular file.
    public enum Kind: Hashable, Sendable {
        /// A directory.
        case directory
        /// A named pipe (FIFO).
        case fifo
        /// A character device, such as `/dev/null` or `/dev/full`.
        case characterDevice
        /// A block device, such as a disk.
        case blockDevice
        /// A Unix-domain socket.
        case socket
        /// Anything else that is not a regular file.
        case other
    }

    /// The path names no file: empty, ending in `/`, or `.` or `..`.
    case invalidPath(String)
    /// The path is a symbolic link; it is neither followed nor replaced.
    case symbolicLink(String)
    /// The path exists and is not a regular file; it is left alone.
    case notARegularFile(String, kind: Kind)
    /// The path is an existing regular file and the caller did not allow replacing it.
    case alreadyExists(String)
    /// The folder that would hold the file cannot be opened (missing, not a folder, or not
    /// accessible), with the errno of `open`.
    case folderUnavailable(String, errno: Int32)
    /// A system call failed while writing; `operation` names it.
    case writeFailed(String, operation: String, errno: Int32)

    /// A whole sentence for people, with what to do next.
    public var description: String {
        switch self {
        case .invalidPath(let path):
            "The output path \"\(path)\" does not name a file; give a file name such as code.svg."
        case .symbolicLink(let path):
            "The output path \(path) is a symbolic link, and this program neither writes through links nor replaces them; give the path of a regular file or a new name."
        case .notARegularFile(let path, .directory):
            "The output path \(path) is a folder, not a file; give the name of a file inside it."
        case .notARegularFile(let path, let kind):
            "The output path \(path) is \(Self.article(kind)), not a regular file, and is left alone; give the path of a regular file or a new name."
        case .alreadyExists(let path):
            "The file \(path) already exists; remove it or choose another name."
        case .folderUnavailable(let path, ENOENT):
            "The folder for \(path) does not exist; create it or choose another path."
        case .folderUnavailable(let path, ENOTDIR):
            "A part of the path \(path) is not a folder; choose another path."
        case .folderUnavailable(let path, let code) where code == EACCES || code == EPERM:
            "The folder for \(path) cannot be opened (permission denied); check its permissions or choose another path."
        case .folderUnavailable(let path, let code):
            "The folder for \(path) cannot be opened: \(SystemErrorWords.cause(code)); choose another path."
        case .writeFailed(let path, let operation, ENOSPC):
            "Writing \(path) failed (\(operation)): the disk is full; free some space and try again."
        case .writeFailed(let path, let operation, let code):
            "Writing \(path) failed (\(operation)): \(SystemErrorWords.cause(code)); check the folder's permissions and free space, then try again."
        }
    }

    private static func article(_ kind: Kind) -> String {
        switch kind {
        case .directory: "a folder"
        case .fifo: "a named pipe (FIFO)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "a special file"
        }
    }
}
