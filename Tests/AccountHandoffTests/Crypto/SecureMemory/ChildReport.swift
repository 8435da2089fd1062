import Foundation

/// `key=value` lines that an exit test's child prints on standard output so that the parent
/// can assert on (and show) what the child measured in a clean process.
struct ChildReport {
    private(set) var values: [String: String] = [:]

    init() {}

    /// Parses what a child printed.
    init(parsing output: [UInt8]) {
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
    }

    subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// An integer value, or -1 when it is missing.
    func integer(_ key: String) -> Int { values[key].flatMap { Int($0) } ?? -1 }

    /// Prints every value, one line each, and flushes.
    func print() {
        let lines = values.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\($0.value)\n" }.joined()
        FileHandle.standardOutput.write(Data(lines.utf8))
    }
}
