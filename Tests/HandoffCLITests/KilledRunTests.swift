import AccountHandoffTestSupport
import Foundation
import SpawnedChild
import TestProcesses
import Testing

/// A test run killed with SIGKILL leaves no server behind: every throwaway server of the
/// harness (the Secret Service's dbus-daemon and gnome-keyring-daemon, Dovecot and its own
/// processes, the transit relay) and every `handoff` child ends with the process that started
/// it. Played with `servers-probe`, which starts them as a test process does.
@Suite(.startsProcesses) struct KilledRunTests {
    @Test func aKilledTestProcessLeavesNoServerAndNoChildRunning() async throws {
        let output = InheritanceSafePipe()
        let input = InheritanceSafePipe()
        let probe = try SpawnedChild.spawn(try BuiltExecutable.url(named: "servers-probe").path,
                                           [try HandoffProcess.binary().path],
                                           input: .descriptor(input.fileHandleForReading.fileDescriptor),
                                           output: .descriptor(output.fileHandleForWriting.fileDescriptor)).get()
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let lines = LineCollector(output.fileHandleForReading)
        let ready = try #require(await lines.first(startingWith: "ready\t", within: HandoffProcess.patience), "the probe said: \(lines.text)")
        let receiver = try #require(Int32(ready.split(separator: "\t").last ?? ""))

        // Every process the probe started, and theirs (Dovecot's login, auth and log processes).
        let tree = Self.descendants(of: probe.pid).compactMap(ProcessIdentity.of)
        let commands = Set(tree.map(\.command))
        #expect(commands.isSuperset(of: ["dbus-daemon", "gnome-keyring-d", "dovecot", "twistd3", "handoff"]), "\(commands)")
        #expect(tree.contains { $0.pid == receiver })

        probe.send(SIGKILL)
        #expect(await Patience.waitUntil { !probe.isRunning })
        #expect(probe.terminationSignal == SIGKILL)
        #expect(await Patience.waitUntil { tree.allSatisfy { !$0.isLive } })
        let left = tree.filter(\.isLive)
        #expect(left.isEmpty, "still running after the test process was killed: \(left)")
        try input.fileHandleForWriting.close()
    }

    /// Every process below `pid`, its children first.
    static func descendants(of pid: Int32) -> [Int32] {
        let children = ProcessInspection.children(of: pid)
        return children + children.flatMap(descendants(of:))
    }
}

/// The lines a child writes, read on a thread of their own.
private final class LineCollector: @unchecked Sendable {
    // Safety of @unchecked Sendable: `data` and `ended` are only touched under `lock`.
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            lock.withLock { ended = true }
        }.start()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// The first whole line that starts with `prefix`, once written; `nil` when the output
    /// ended without it or `timeout` passed.
    func first(startingWith prefix: String, within timeout: Duration) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let (text, ended) = lock.withLock { (String(decoding: data, as: UTF8.self), self.ended) }
            let whole = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if let line = whole.first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if ended { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
