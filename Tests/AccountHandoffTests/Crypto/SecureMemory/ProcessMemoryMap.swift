#if os(Linux)
import Foundation
import Glibc

/// This process's memory mappings as the kernel reports them in `/proc/self/smaps`: the
/// ground truth for what protections, locks and flags a region really has.
struct ProcessMemoryMap {
    /// One mapping (VMA).
    struct Mapping {
        let range: Range<UInt>
        /// `r`, `w`, `x`, `p`/`s`, for example `rw-p` or `---p`.
        let permissions: String
        /// `Locked:` in bytes.
        let lockedBytes: Int
        /// `Rss:` in bytes.
        let residentBytes: Int
        /// `VmFlags:` (`lo` locked, `dd` not dumped, …).
        let flags: Set<String>
    }

    /// Every mapping, by start address.
    let mappings: [Mapping]

    /// Reads `/proc/self/smaps` now.
    init() {
        let text = String(decoding: ProcFile.read("/proc/self/smaps"), as: UTF8.self)
        var mappings: [Mapping] = []
        var range: Range<UInt>?
        var permissions = ""
        var locked = 0
        var resident = 0
        func finish(flags: Set<String>) {
            if let range {
                mappings.append(Mapping(range: range, permissions: permissions, lockedBytes: locked,
                                        residentBytes: resident, flags: flags))
            }
            range = nil
        }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                switch first {
                case "Locked:": locked = Int(fields[1])! * 1024
                case "Rss:": resident = Int(fields[1])! * 1024
                case "VmFlags:": finish(flags: Set(fields.dropFirst().map(String.init)))
                default: break
                }
            } else if let dash = first.firstIndex(of: "-"), let start = UInt(first[..<dash], radix: 16),
                let end = UInt(first[first.index(after: dash)...], radix: 16)
            {
                range = start..<end
                permissions = String(fields[1])
                locked = 0
                resident = 0
            }
        }
        self.mappings = mappings
    }

    /// The mapping that contains `address`, if any.
    func mapping(containing address: UInt) -> Mapping? {
        var low = 0
        var high = mappings.count
        while low < high {
            let middle = (low + high) / 2
            if mappings[middle].range.upperBound <= address { low = middle + 1 } else { high = middle }
        }
        return low < mappings.count && mappings[low].range.contains(address) ? mappings[low] : nil
    }

    /// Why `body` is not a locked, read-write, no-dump mapping of its own with a `PROT_NONE`,
    /// no-dump page directly before and after it; nil when it is.
    func guardProblem(around body: Range<UInt>) -> String? {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        guard let inside = mapping(containing: body.lowerBound), inside.range == body else {
            return "body \(hex(body)) is not exactly one mapping"
        }
        guard inside.permissions == "rw-p" else { return "body \(hex(body)) is \(inside.permissions)" }
        guard inside.lockedBytes == body.count, inside.flags.contains("lo") else {
            return "body \(hex(body)) has \(inside.lockedBytes) of \(body.count) bytes locked"
        }
        guard inside.flags.contains("dd") else { return "body \(hex(body)) is not excluded from core dumps" }
        for guardPage in [body.lowerBound - page, body.upperBound] {
            guard let neighbour = mapping(containing: guardPage) else {
                return "guard page \(hex(guardPage..<guardPage + page)) is not mapped"
            }
            guard neighbour.permissions == "---p", neighbour.flags.contains("dd") else {
                return "guard page at \(String(guardPage, radix: 16)) is \(neighbour.permissions) \(neighbour.flags.sorted())"
            }
        }
        return nil
    }

    private func hex(_ range: Range<UInt>) -> String {
        "\(String(range.lowerBound, radix: 16))-\(String(range.upperBound, radix: 16))"
    }
}

/// Small readers of `/proc` files (whose reported size is 0, so they are read to the end).
enum ProcFile {
    static func read(_ path: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.readToEnd()) ?? Data())
    }

    /// A `kB` field of `/proc/self/status` (`VmLck`, `VmRSS`, …) in bytes.
    static func statusBytes(_ field: String) -> Int {
        let text = String(decoding: read("/proc/self/status"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return Int(fields[1])! * 1024
        }
        return -1
    }

    /// The number of lines of `/proc/self/maps`: this process's memory mappings.
    static var mappingCount: Int { read("/proc/self/maps").reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
}
#endif
