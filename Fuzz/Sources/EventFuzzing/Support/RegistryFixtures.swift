import AccountHandoff
import Foundation

/// Registry storage that fails when the script says so: reads, writes or both, from the first
/// call or from the n-th, with each of the storage failures (Spec 6.3: a registry that cannot
/// read or write its records refuses to start sessions, and keeps what it knows in memory).
final class FaultyRegistryStorage: RegistryStorage, @unchecked Sendable {
    // Safety of @unchecked Sendable: used by one fuzz input on one thread.
    private var records: [RegistryRecord] = []
    private let plan: UInt8
    private var calls = 0
    /// How many writes failed: a best-effort edit (a release, an outcome, a prune) that failed
    /// left the stored records as they were (Spec 6.3).
    private(set) var failedWrites = 0
    /// Memory only: the sessions use it in place, on the fuzzer's thread.
    var mayBlock: Bool { false }

    /// `plan`: bit 0 fails reads, bit 1 fails writes, bits 2-3 how many calls succeed first,
    /// bits 4-5 which failure.
    init(plan: UInt8) { self.plan = plan }

    private var failure: RegistryStorageFailure {
        switch (plan >> 4) & 3 {
        case 0: .unreadable(errno: EIO)
        case 1: .unwritable(errno: ENOSPC)
        case 2: .corrupt
        default: .notARegularFile
        }
    }

    private func failsNow(_ bit: UInt8) -> Bool {
        calls += 1
        return plan & bit != 0 && calls > Int((plan >> 2) & 3)
    }

    func load() throws(RegistryStorageFailure) -> [RegistryRecord] {
        if failsNow(1) { throw failure }
        return records
    }

    func save(_ records: [RegistryRecord]) throws(RegistryStorageFailure) {
        if failsNow(2) {
            failedWrites += 1
            throw failure
        }
        self.records = records
    }
}

/// Registry files in the world's scratch directory, reset for every input, and the odd things
/// that can sit at a registry's path (a link, a directory, a FIFO, a corrupt file).
enum RegistryFiles {
    /// A fresh path for `name`: whatever was there (file, lock file, link, directory) is gone.
    static func freshPath(_ name: String) -> String {
        let path = "\(MachineFixtures.shared.scratchDirectory)/\(name)"
        for leftover in [path, path + ".lock"] {
            if unlink(leftover) != 0 { rmdir(leftover) }
        }
        return path
    }

    /// Puts something at `path` (or its lock path) according to `choice`, and returns the path
    /// to use: nothing, a valid file with a record, a corrupt file, a symbolic link, a
    /// directory, a FIFO; a link, a directory or a FIFO as the lock file; a path below a
    /// regular file; a file the kernel refuses to read (`/proc/self/mem`: EIO at offset 0).
    static func prepare(_ path: String, choice: UInt8) -> String {
        switch choice % 11 {
        case 1:
            let text = "AccountHandoff registry v2\n" + String(repeating: "0", count: 32) + " 1800000180 completed.imported\n"
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        case 2:
            _ = FileManager.default.createFile(atPath: path, contents: Data("AccountHandoff registry v1\n".utf8))
        case 3:
            symlink("/dev/null", path)
        case 4:
            mkdir(path, 0o700)
        case 5:
            mkfifo(path, 0o600)
        case 6:
            symlink("/dev/null", path + ".lock")
        case 7:
            mkdir(path + ".lock", 0o700)
        case 8:
            mkfifo(path + ".lock", 0o600)
        case 9:
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            return path + "/registry"
        case 10:
            return "/proc/self/mem"
        default:
            break
        }
        return path
    }

    /// Runs `body` with the process's file size limit at `bytes` (writes beyond it fail with
    /// EFBIG, as on a full quota), then restores it.
    static func withFileSizeLimit(_ bytes: rlim_t, _ body: () -> Void) {
        ignoreFileSizeSignal
        var saved = rlimit()
        guard getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved) == 0 else { return body() }
        var limited = saved
        limited.rlim_cur = min(bytes, saved.rlim_max)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited)
        body()
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
    }

    /// SIGXFSZ would end the process at the limit; ignored, the write fails instead.
    private static let ignoreFileSizeSignal: Void = { signal(SIGXFSZ, SIG_IGN) }()
}
