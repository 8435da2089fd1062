import HandoffCLI
import AccountHandoff
import AccountHandoffBench
import Foundation

/// `handoff-dev bench`: the performance of a whole session against its exact libsodium floor, on
/// one and two threads, with pending senders at scale, the QR and frame codecs, and what a
/// session costs in libsodium calls, heap allocations, locked memory and wire bytes. Times are this
/// machine's; ratios are the numbers to compare across machines.
enum BenchCommand {
    static let specification = CommandManual.bench.specification

    static func run(_ arguments: [String], console: Console) async throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let iterations = try number(parsed, "--iterations", default: 200, in: 1...100_000)
        let repetitions = try number(parsed, "--repetitions", default: 7, in: 1...99)
        let quick = parsed.has("--quick")
        let session = ReferenceSession.typical
        let loadBefore = ProcessProbe.loadAverage()
        let lockLimit = LockLimit.current()
        let report: BenchReport
        let sessionCounts: SodiumCalls.Counts?
        do {
            let sessions = try SessionBench(session: session, iterations: iterations, repetitions: repetitions).run()
            var pending: [PendingSendersBench.Result] = []
            var refused: [PendingSendersBench.Refusal] = []
            switch try PendingSendersBench(session: session, senders: quick ? 100 : 1_000, repetitions: repetitions).run() {
            case .measured(let result): pending.append(result)
            case .refused(let refusal): refused.append(refusal)
            }
            let admission = quick ? nil : try PendingSendersBench.admission(session: session, lockLimit: lockLimit)
            let codecs = try CodecBench(session: session, iterations: iterations, repetitions: repetitions).run()
            let relay = try await RelayBench(repetitions: repetitions).run()
            sessionCounts = sessions.sessionCounts
            report = BenchReport(
                format: BenchReport.formatName, build: buildName, processors: ProcessInfo.processInfo.activeProcessorCount,
                loadAverageBefore: loadBefore, loadAverageAfter: ProcessProbe.loadAverage(),
                iterations: iterations, repetitions: repetitions, quick: quick, lockLimit: lockLimit,
                floor: .init(microsecondsPerSession: sessions.floorMicroseconds, crypto: sessions.floorCounts.map(CryptoCounts.init)),
                session: .init(
                    microsecondsPerSession: sessions.sessionMicroseconds, sessionOverFloor: sessions.sessionOverFloor,
                    timedPairs: sessions.timedPairs,
                    crypto: sessions.sessionCounts.map(CryptoCounts.init),
                    cryptoEqualsFloor: sessions.sessionCounts != nil && sessions.sessionCounts == sessions.floorCounts,
                    wireBytes: sessions.wire.bytes, wireFrames: sessions.wire.frames, qrTextCharacters: sessions.qrTextCharacters,
                    heapAllocations: sessions.heapAllocationsPerSession),
                threads: .init(
                    sessionsPerSecondOneThread: sessions.sessionsPerSecondOneThread,
                    sessionsPerSecondTwoThreads: sessions.sessionsPerSecondTwoThreads,
                    floorSessionsPerSecondOneThread: sessions.floorSessionsPerSecondOneThread,
                    floorSessionsPerSecondTwoThreads: sessions.floorSessionsPerSecondTwoThreads),
                pendingSenders: pending, pendingSendersRefused: refused,
                pendingSendersAdmission: admission.map { [$0] } ?? [], codecs: codecs, relay: relay)
        } catch {
            throw CLIError(error.message, exitCode: .failure)
        }
        console.line(parsed.has("--json") ? report.json() : BenchTable.render(report, sessionCounts: sessionCounts))
        return .success
    }

    private static func number(_ parsed: ParsedArguments, _ option: String, default value: Int,
                               in range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let text = parsed.value(option) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound).", command: "bench")
        }
        return number
    }

    private static var buildName: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }
}
