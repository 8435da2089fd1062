#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why ``SafeOutputFile`` did not write a file. Nothing was changed at the target path in
/// any case but ``writeFailed(_:operation:errno:)`` after the rename (``SafeOutputFile``
/// says which).
public enum SafeOutputFileError: Error, Hashable, Sendable, TranslatedSentence {
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
    /// A step of the write whose system call failed.
    public enum WriteStep: Hashable, Sendable {
        /// Looking at what is at the target path.
        case checkingTarget
        /// Creating the temporary file beside the target.
        case creatingTemporaryFile
        /// Giving the temporary file its mode.
        case settingMode
        /// Writing the bytes.
        case writing
        /// Flushing the temporary file to stable storage.
        case flushing
        /// Closing the temporary file.
        case closing
        /// Renaming the temporary file to the target (replacing it).
        case renaming
        /// Linking the temporary file at the target (which must not exist).
        case linking
        /// Flushing the folder, so the new name survives a crash.
        case flushingFolder
    }

    /// A system call failed while writing; `operation` names its step.
    case writeFailed(String, operation: WriteStep, errno: Int32)

    /// A whole sentence for people, with what to do next; the path is shown as it was given.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .invalidPath(let path):
            sentenceCatalog.sentence("outputFile.invalidPath", .text(path), in: language)
        case .symbolicLink(let path):
            sentenceCatalog.sentence("outputFile.symbolicLink", .text(path), in: language)
        case .notARegularFile(let path, .directory):
            sentenceCatalog.sentence("outputFile.folder", .text(path), in: language)
        case .notARegularFile(let path, let kind):
            sentenceCatalog.sentence("outputFile.notARegularFile", .text(path), .text(Self.article(kind, in: language)), in: language)
        case .alreadyExists(let path):
            sentenceCatalog.sentence("outputFile.alreadyExists", .text(path), in: language)
        case .folderUnavailable(let path, ENOENT):
            sentenceCatalog.sentence("outputFile.folderMissing", .text(path), in: language)
        case .folderUnavailable(let path, ENOTDIR):
            sentenceCatalog.sentence("outputFile.pathPartNotAFolder", .text(path), in: language)
        case .folderUnavailable(let path, let code) where code == EACCES || code == EPERM:
            sentenceCatalog.sentence("outputFile.folderPermissionDenied", .text(path), in: language)
        case .folderUnavailable(let path, let code):
            sentenceCatalog.sentence("outputFile.folderUnavailable", .text(path), .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .writeFailed(let path, let operation, ENOSPC):
            sentenceCatalog.sentence("outputFile.diskFull", .text(path), .text(Self.words(operation, in: language)), in: language)
        case .writeFailed(let path, let operation, let code):
            sentenceCatalog.sentence("outputFile.writeFailed", .text(path), .text(Self.words(operation, in: language)),
                                     .text(SystemErrorWords.cause(code, in: language)),
                                     in: language)
        }
    }

    private static func words(_ step: WriteStep, in language: HandoffLanguage) -> String {
        switch step {
        case .checkingTarget: sentenceCatalog.sentence("outputFile.step.checkingTarget", in: language)
        case .creatingTemporaryFile: sentenceCatalog.sentence("outputFile.step.creatingTemporaryFile", in: language)
        case .settingMode: sentenceCatalog.sentence("outputFile.step.settingMode", in: language)
        case .writing: sentenceCatalog.sentence("outputFile.step.writing", in: language)
        case .flushing: sentenceCatalog.sentence("outputFile.step.flushing", in: language)
        case .closing: sentenceCatalog.sentence("outputFile.step.closing", in: language)
        case .renaming: sentenceCatalog.sentence("outputFile.step.renaming", in: language)
        case .linking: sentenceCatalog.sentence("outputFile.step.linking", in: language)
        case .flushingFolder: sentenceCatalog.sentence("outputFile.step.flushingFolder", in: language)
        }
    }

    private static func article(_ kind: Kind, in language: HandoffLanguage) -> String {
        switch kind {
        case .directory: sentenceCatalog.sentence("outputFile.kind.directory", in: language)
        case .fifo: sentenceCatalog.sentence("outputFile.kind.fifo", in: language)
        case .characterDevice: sentenceCatalog.sentence("outputFile.kind.characterDevice", in: language)
        case .blockDevice: sentenceCatalog.sentence("outputFile.kind.blockDevice", in: language)
        case .socket: sentenceCatalog.sentence("outputFile.kind.socket", in: language)
        case .other: sentenceCatalog.sentence("outputFile.kind.other", in: language)
        }
    }
}
