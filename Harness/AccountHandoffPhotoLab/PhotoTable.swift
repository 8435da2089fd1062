/// The experiment's table: per distortion, how many of the codes each reader read correctly,
/// then per kind and in all.
package enum PhotoTable {
    package static func markdown(_ cases: [PhotoLab.Case]) -> String {
        let codes = Set(cases.map(\.code.text)).count
        var lines = ["| distortion | kind | AccountHandoffScan | zbarimg |", "|---|---|---|---|"]
        var order: [String] = []
        var byName: [String: [PhotoLab.Case]] = [:]
        for item in cases {
            if byName[item.distortion.name] == nil { order.append(item.distortion.name) }
            byName[item.distortion.name, default: []].append(item)
        }
        for name in order {
            let group = byName[name] ?? []
            lines.append("| \(name) | \(group[0].distortion.category.rawValue) | \(count(group, \.ours)) of \(group.count) | \(count(group, \.zbarimg)) of \(group.count) |")
        }
        lines += ["", "| kind | distortions | AccountHandoffScan | zbarimg |", "|---|---|---|---|"]
        for category in PhotoDistortion.Category.allCases {
            let group = cases.filter { $0.distortion.category == category }
            guard !group.isEmpty else { continue }
            lines.append("| \(category.rawValue) | \(group.count / max(codes, 1)) | \(count(group, \.ours)) of \(group.count) | \(count(group, \.zbarimg)) of \(group.count) |")
        }
        lines.append("| all | \(cases.count / max(codes, 1)) | \(count(cases, \.ours)) of \(cases.count) | \(count(cases, \.zbarimg)) of \(cases.count) |")
        for (reader, path) in [("AccountHandoffScan", \PhotoLab.Case.ours), ("zbarimg", \PhotoLab.Case.zbarimg)] {
            let missed = cases.map { $0[keyPath: path] }.filter { $0 != .read }
            let noCode = missed.filter { $0 == .noCode }.count
            let wrong = missed.filter { $0 == .wrongCode }.count
            lines.append("")
            lines.append("\(reader) did not read \(missed.count): no code found in \(noCode), a wrong code in \(wrong), "
                         + "something else in \(missed.count - noCode - wrong).")
        }
        let disagreements = cases.filter { ($0.ours == .read) != ($0.zbarimg == .read) }
        if !disagreements.isEmpty {
            lines += ["", "Read by one reader only:"]
            lines += disagreements.map { "- \($0.distortion.name), \($0.code.label): AccountHandoffScan \(words($0.ours)), zbarimg \(words($0.zbarimg))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func count(_ cases: [PhotoLab.Case], _ reader: KeyPath<PhotoLab.Case, PhotoLab.Reading>) -> Int {
        cases.filter { $0[keyPath: reader] == .read }.count
    }

    static func words(_ reading: PhotoLab.Reading) -> String {
        switch reading {
        case .read: "read it"
        case .wrongCode: "read a WRONG code"
        case .noCode: "found no code"
        case .other(let what): "refused: \(what)"
        }
    }
}
