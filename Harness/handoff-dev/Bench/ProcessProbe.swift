import HandoffCLI
import Foundation

/// What the kernel says about this process's memory (Linux `/proc`, each file read whole;
/// zeros elsewhere).
struct ProcessProbe: Codable, Equatable {
    /// Lines of `/proc/self/maps`: one per memory mapping (the kernel caps them at `vm.max_map_count`).
    let memoryMaps: Int
    /// `VmLck` of `/proc/self/status`: memory locked with `mlock`, KiB.
    let lockedKiB: Int
    /// `VmRSS`: resident memory, KiB.
    let residentKiB: Int

    enum CodingKeys: String, CodingKey {
        case memoryMaps = "memory_maps", lockedKiB = "locked_kib", residentKiB = "resident_kib"
    }

    /// Reads the current values.
    static func now() -> ProcessProbe {
        let maps = ProcFile.read("/proc/self/maps") ?? ""
        let status = ProcFile.read("/proc/self/status") ?? ""
        return ProcessProbe(memoryMaps: maps.split(separator: "\n").count,
                            lockedKiB: field("VmLck", in: status), residentKiB: field("VmRSS", in: status))
    }

    /// The one-minute load average of `/proc/loadavg`, or -1 where there is none.
    static func loadAverage() -> Double {
        let text = ProcFile.read("/proc/loadavg") ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? -1
    }

    /// The number of `name:\t   123 kB` in a `/proc/self/status` text.
    private static func field(_ name: String, in status: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        return 0
    }
}
