import AccountHandoffPhotoLab
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// The photo experiment (Scripts/photo-table.sh prints its table): 4 codes drawn by
/// `handoff qr --png`, each photographed in software with the 48 fixed distortions of
/// ``PhotoDistortion/all``, read by AccountHandoffScan and by zbarimg.
@Suite struct PhotoExperimentTests {
    /// What this reader read on Debian 12 (ImageMagick 6.9.11-60, zbar 0.23.92): 149 of 192;
    /// zbarimg read 145 (it does not try the inverted picture). The floor leaves room for a
    /// library update that moves a borderline case, not for a reader that got worse.
    static let floor = 145

    @Test(.slowSlice)
    func photographedCodesReadRightOrNotAtAll() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ah-photo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let handoff = try Self.handoff()
        // The lab reads its pictures with blocking calls: on the I/O pool, as an app must.
        let untouched = try await blocking { try PhotoLab(handoff: handoff, directory: directory).run([.untouched]) }
        #expect(untouched.allSatisfy { $0.ours == .read && $0.zbarimg == .read }, "the undistorted codes read")
        let cases = try await blocking { try PhotoLab(handoff: handoff, directory: directory).run() }
        print(PhotoTable.markdown(cases))
        #expect(PhotoDistortion.all.count >= 40)
        #expect(cases.count == PhotoDistortion.all.count * untouched.count)
        // Read means the right code; a wrong transfer code must never come out.
        let wrong = cases.filter { $0.ours == .wrongCode }
        #expect(wrong.isEmpty, "a wrong code was read: \(wrong.map { "\($0.distortion.name), \($0.code.label)" })")
        let ours = cases.filter { $0.ours == .read }.count
        let zbarimg = cases.filter { $0.zbarimg == .read }.count
        #expect(ours >= Self.floor, "read \(ours) of \(cases.count), the floor is \(Self.floor)")
        #expect(ours >= zbarimg, "zbarimg read \(zbarimg), this reader \(ours)")
        // Every picture zbarimg reads, this reader reads too (the same engine, plus inverted pictures).
        let missed = cases.filter { $0.zbarimg == .read && $0.ours != .read }
        #expect(missed.isEmpty, "read by zbarimg only: \(missed.map { "\($0.distortion.name), \($0.code.label)" })")
    }

    /// The `handoff` built with the tests.
    static func handoff() throws -> URL {
        try BuiltExecutable.url(named: "handoff")
    }
}
