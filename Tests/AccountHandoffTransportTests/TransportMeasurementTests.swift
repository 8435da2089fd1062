import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// Measurements of the transport, printed (no test asserts a time); each test asserts that what
/// it measured happened. In the slow slice (`Scripts/slow-tests.sh`); alone with
/// `HANDOFF_SLOW_TESTS=1 swift test --filter TransportMeasurementTests`, so the process's CPU
/// time is the transport's.
@Suite(.serialized)
struct TransportMeasurementTests {
    /// CPU seconds (user + system) this process used so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    @Test(.slowSlice)
    func idleCPUOfAWaitingSender() async throws {
        let listener = try FrameListener(configuration: .standard)
        let session = try testSender(rendezvous: listener.rendezvous.token, channel: listener, lifetime: 120)
        let running = Task { await session.run() }
        #expect(await session.shownCode() != nil, "the sender never showed its code")
        try await Task.sleep(for: .seconds(1))
        let seconds = 20.0
        let before = Self.cpuSeconds()
        try await Task.sleep(for: .seconds(seconds))
        let used = Self.cpuSeconds() - before
        await session.cancel()
        #expect(await running.value == .ended(.cancelled(by: .local)), "the sender was not waiting until it was cancelled")
        print(String(format: "Idle sender: %.3f s CPU in %.0f s (%.2f%% of one core)", used, seconds, used / seconds * 100))
    }

    @Test(.slowSlice)
    func frameRoundTripLatency() async throws {
        var configuration = TransportConfiguration.standard
        configuration.bindTimeout = .seconds(600)
        let (server, payload, _) = try Loopback.listener(configuration)
        let echo = Task {
            while let event = try await server.receive() {
                if case .frame(let bytes, let peer) = event { try await server.send(bytes, to: peer) }
            }
        }
        let client = try await ConnectionFrameChannel.connect(to: payload, configuration: configuration)
        let frame = [UInt8](repeating: 0x5A, count: 120)
        var samples: [Double] = []
        for round in 0..<1_100 {
            let start = ContinuousClock.now
            try await client.send(frame, to: ConnectionFrameChannel.sender)
            guard case .frame(let back, _)? = try await client.receive(), back == frame else { Issue.record("no echo"); break }
            let elapsed = ContinuousClock.now - start
            if round >= 100 { samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6) }
        }
        await client.close()
        await server.close()
        echo.cancel()
        #expect(samples.count == 1_000, "every frame came back unchanged")
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[samples.count * 99 / 100]
        print(String(format: "Frame round trip over loopback, %d rounds: median %.0f us, p99 %.0f us, max %.0f us",
                     samples.count, median, p99, samples.last ?? 0))
    }
}
