@testable import AccountHandoff
import Foundation
import Testing

/// The package's one durable writer of a new file (``SafeOutputFile/createDurably(_:in:writing:after:)``),
/// which the atomic writer and the reference store's credential files share: exclusive
/// creation, mode 0600, every step reached in order, nothing left behind on a failure.
@Suite struct DurableNewFileTests {
    struct Stop: Error, Equatable {
        let at: SafeOutputFile.NewFileStep
    }

    /// What one write did: the steps it reached, and how it ended.
    struct Run: Sendable {
        let steps: [SafeOutputFile.NewFileStep]
        let failure: SafeOutputFile.NewFileFailure<Stop>?
    }

    /// Writes `bytes` as `name` in `folder` on the I/O pool, stopping at `stop` if given.
    static func create(_ name: String, in folder: String, _ bytes: [UInt8], stoppingAt stop: SafeOutputFile.NewFileStep? = nil) async -> Run {
        await BlockingIOPool.shared.run { _ in
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { close(descriptor) }
            var steps: [SafeOutputFile.NewFileStep] = []
            let failure = bytes.withUnsafeBytes { buffer -> SafeOutputFile.NewFileFailure<Stop>? in
                do throws(SafeOutputFile.NewFileFailure<Stop>) {
                    try SafeOutputFile.createDurably(name, in: descriptor, writing: buffer) { (step) throws(Stop) in
                        steps.append(step)
                        if step == stop { throw Stop(at: step) }
                    }
                } catch { return error }
                return nil
            }
            return Run(steps: steps, failure: failure)
        }
    }

    @Test func aNewFileGetsEveryByteModeSixHundredAndEveryStepInOrder() async throws {
        let folder = try SafeOutputFileTests.Folder()
        defer { folder.remove() }
        let previous = umask(0o022)
        defer { umask(previous) }
        let run = await Self.create("secret", in: folder.path, Array("hunter2".utf8))
        #expect(run.failure == nil)
        #expect(run.steps == [.created, .written, .flushed])
        #expect(try SafeOutputFileTests.contents(folder.file("secret")) == Array("hunter2".utf8))
        #expect(try SafeOutputFileTests.status(folder.file("secret")).st_mode & 0o777 == 0o600)
    }

    @Test func anExistingNameIsNeverOpened() async throws {
        let folder = try SafeOutputFileTests.Folder()
        defer { folder.remove() }
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.file("taken")))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: folder.file("taken"))
        for name in ["taken", "link"] {
            let run = await Self.create(name, in: folder.path, [1, 2, 3])
            guard case .creating(let code)? = run.failure else {
                Issue.record("\(name): \(String(describing: run.failure))")
                continue
            }
            #expect(code == EEXIST, "\(name)")
            #expect(run.steps == [])
        }
        #expect(try SafeOutputFileTests.contents(folder.file("taken")) == Array("keep".utf8))
    }

    @Test(arguments: [SafeOutputFile.NewFileStep.created, .written, .flushed])
    func aFailureAtAnyStepLeavesNoFile(at step: SafeOutputFile.NewFileStep) async throws {
        let folder = try SafeOutputFileTests.Folder()
        defer { folder.remove() }
        let run = await Self.create("half", in: folder.path, Array(repeating: 7, count: 10_000), stoppingAt: step)
        guard case .hook(let stop)? = run.failure else {
            Issue.record("\(String(describing: run.failure))")
            return
        }
        #expect(stop == Stop(at: step))
        #expect(try folder.names() == [])
    }
}

extension SafeOutputFile.NewFileFailure: Equatable where HookFailure: Equatable {
    public static func == (left: Self, right: Self) -> Bool {
        switch (left, right) {
        case (.creating(let a), .creating(let b)), (.settingMode(let a), .settingMode(let b)), (.writing(let a), .writing(let b)),
             (.flushing(let a), .flushing(let b)), (.closing(let a), .closing(let b)):
            a == b
        case (.hook(let a), .hook(let b)): a == b
        default: false
        }
    }
}
