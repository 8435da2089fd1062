#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The receiver's store directory, made safe before anything is written into it: created
/// with mode 0700 when missing; refused when it is a symbolic link, not a directory, or
/// another user's; tightened to 0700, with a warning, when group or others had access
/// (another local user could otherwise swap the files the import writes).
enum StoreDirectory {
    static func prepare(_ directory: URL, console: Console) throws(CLIError) {
        let path = directory.path
        var status = stat()
        if lstat(path, &status) != 0 {
            do {
                try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw CLIError("The store directory \(path) cannot be created; check that its parent exists and is writable.", exitCode: .failure)
            }
            guard mkdir(path, 0o700) == 0 || errno == EEXIST, lstat(path, &status) == 0 else {
                throw CLIError("The store directory \(path) cannot be created; check that its parent exists and is writable.", exitCode: .failure)
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw CLIError("The store directory \(path) is a symbolic link; give the directory itself with --store DIR.", exitCode: .failure)
        default: throw CLIError("\(path) is not a directory; give a directory for the store with --store DIR.", exitCode: .failure)
        }
        guard status.st_uid == geteuid() else {
            throw CLIError("The store directory \(path) belongs to another user; use a directory of your own with --store DIR.", exitCode: .failure)
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 != 0 else { return }
        guard chmod(path, 0o700) == 0 else {
            throw CLIError("The store directory \(path) is open to other users (mode 0\(String(mode, radix: 8))) and cannot be restricted; run 'chmod 700 \(path)'.", exitCode: .failure)
        }
        console.error("Warning: the store directory \(path) was open to other users (mode 0\(String(mode, radix: 8))); it is now 0700, for you only.")
    }
}
