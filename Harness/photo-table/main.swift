import AccountHandoffPhotoLab
import Foundation

// Prints the photo experiment's table (Scripts/photo-table.sh): the codes drawn by the
// `handoff` built beside this program, photographed in software, read by both readers.
let handoff = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("handoff")
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-photo-\(UUID().uuidString)")
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let untouched = try PhotoLab(handoff: handoff, directory: directory).run([.untouched])
    let cases = try PhotoLab(handoff: handoff, directory: directory).run { _ in FileHandle.standardError.write(Data(".".utf8)) }
    FileHandle.standardError.write(Data("\n".utf8))
    print("Untouched codes read: AccountHandoffScan \(untouched.filter { $0.ours == .read }.count) of \(untouched.count), "
          + "zbarimg \(untouched.filter { $0.zbarimg == .read }.count) of \(untouched.count).\n")
    print(PhotoTable.markdown(cases), terminator: "")
} catch {
    FileHandle.standardError.write(Data("photo-table: \(error)\n".utf8))
    exit(1)
}
