import HandoffCLI
import AccountHandoff
import AccountHandoffBench
import Foundation

/// The human-readable form of a ``BenchReport``: one row per quantity, its median and range.
enum BenchTable {
    static func render(_ report: BenchReport, sessionCounts: SodiumCalls.Counts?) -> String {
        var lines: [String] = []
        let load = String(format: "%.2f -> %.2f", report.loadAverageBefore, report.loadAverageAfter)
        lines.append("AccountHandoff bench: \(report.build) build, \(report.processors) processors, load average \(load); "
                     + "\(report.iterations) iterations x \(report.repetitions) repetitions; median [min .. max]")
        lines.append("  lock limit (RLIMIT_MEMLOCK): " + lockLimit(report.lockLimit))
        if report.build != "release" {
            lines.append("  (a debug build: times mean little; measure with swift build -c release --product handoff-dev)")
        }
        func add(_ name: String, _ value: String, _ range: String = "") {
            lines.append("  " + name.padding(toLength: 50, withPad: " ", startingAt: 0) + value.leftPadded(14) + "  " + range)
        }
        let s = report.session, t = report.threads, c = report.codecs
        add("exact floor (libsodium work of one session)", micro(report.floor.microsecondsPerSession.median), range(report.floor.microsecondsPerSession, micro))
        add("full session, both state machines", micro(s.microsecondsPerSession.median), range(s.microsecondsPerSession, micro))
        add("session_over_floor", ratio(s.sessionOverFloor.median),
            range(s.sessionOverFloor, ratio) + " over \(whole(Double(s.timedPairs))) interleaved pairs")
        add("sessions/s, 1 thread", whole(t.sessionsPerSecondOneThread.median), range(t.sessionsPerSecondOneThread, whole))
        add("sessions/s, 2 threads (total)", whole(t.sessionsPerSecondTwoThreads.median), range(t.sessionsPerSecondTwoThreads, whole))
        add("floor sessions/s, 1 thread", whole(t.floorSessionsPerSecondOneThread.median), range(t.floorSessionsPerSecondOneThread, whole))
        add("floor sessions/s, 2 threads (total)", whole(t.floorSessionsPerSecondTwoThreads.median), range(t.floorSessionsPerSecondTwoThreads, whole))
        for pending in report.pendingSenders {
            let title = "\(whole(Double(pending.senders))) pending senders (\(pending.repetitions) repetitions)"
            lines.append("  " + title)
            add("  starts/s", whole(pending.startsPerSecond.median), range(pending.startsPerSecond, whole))
            add("  completions/s", whole(pending.completionsPerSecond.median), range(pending.completionsPerSecond, whole))
            add("  memory maps (/proc/self/maps lines)", whole(pending.memoryMaps.median),
                range(pending.memoryMaps, whole) + " before: \(whole(Double(pending.before.memoryMaps)))")
            add("  locked memory (VmLck)", kib(pending.lockedKiB.median),
                range(pending.lockedKiB, kib) + " before: \(kib(Double(pending.before.lockedKiB)))")
            add("  resident memory (VmRSS)", kib(pending.residentKiB.median),
                range(pending.residentKiB, kib) + " before: \(kib(Double(pending.before.residentKiB)))")
            add("  locked memory per pending sender", whole(Double(pending.lockedBytesPerSender)) + " B", "its guarded arena")
        }
        for refused in report.pendingSendersRefused {
            add("\(whole(Double(refused.senders))) pending senders", "refused",
                "\(refused.reason) with \(whole(Double(refused.pendingWhenRefused))) pending, \(kib(Double(refused.lockedKiB))) locked")
        }
        for admission in report.pendingSendersAdmission {
            add("pending senders the lock limit admits", whole(Double(admission.admitted)),
                "\(whole(Double(admission.admittedPerMiB))) per MiB, each arena asking \(whole(Double(admission.senderArenaBytes))) bytes; "
                    + "the next start refused (\(admission.refusedReason)), \(kib(Double(admission.lockedKiB))) locked")
            add("  of those completed", whole(Double(admission.completed)))
        }
        add("QR payload -> text -> matrix (AccountHandoffQR)", micro(c.qrMatrixMicroseconds.median), range(c.qrMatrixMicroseconds, micro))
        add("QR raw libqrencode call, same segments", micro(c.qrRawLibqrencodeMicroseconds.median), range(c.qrRawLibqrencodeMicroseconds, micro))
        add("QR module / raw call", ratio(c.qrMatrixOverRaw.median),
            range(c.qrMatrixOverRaw, ratio) + " version \(c.qrVersion)-\(c.qrErrorCorrection)")
        add("QR text decode + validate", micro(c.qrTextDecodeMicroseconds.median), range(c.qrTextDecodeMicroseconds, micro))
        add("frame decode, per frame", micro(c.frameDecodeMicroseconds.median), range(c.frameDecodeMicroseconds, micro))
        add("bytes on the wire per session", whole(Double(s.wireBytes)), "in \(s.wireFrames) frames; QR text \(s.qrTextCharacters) characters")
        if let allocations = s.heapAllocations {
            add("heap allocations per session", String(format: "%.1f", allocations),
                "malloc and its kin, over \(SessionBench.countedSessions) sessions")
        } else {
            add("heap allocations per session", "not counted", "(only with glibc)")
        }
        if let sessionCounts {
            lines.append("  libsodium calls per session" + (s.cryptoEqualsFloor ? " (the floor makes the same):" : " (THE FLOOR DIFFERS):"))
            for line in sessionCounts.description.split(separator: "\n") { lines.append("    " + line) }
        } else {
            add("libsodium calls per session", "not counted", "(only with glibc)")
        }
        let r = report.relay
        guard r.available, let scanToCode = r.scanToCodeMilliseconds, let transfer = r.transferMilliseconds else {
            lines.append("  through a transit relay: not measured. \(r.relay)")
            return lines.joined(separator: "\n")
        }
        lines.append("  through Debian's transit relay on 127.0.0.1 (\(r.sessions) whole transfers, the sender waiting there first)")
        add("  scan to code on the receiving screen", milli(scanToCode.median), range(scanToCode, milli))
        add("  scan to both outcomes (people answer at once)", milli(transfer.median), range(transfer, milli))
        add("  bytes sender -> receiver", whole(Double(r.bytesSenderToReceiver ?? 0)), "challenge and \(r.framesSenderToReceiver ?? 0) frames")
        add("  bytes receiver -> sender", whole(Double(r.bytesReceiverToSender ?? 0)), "response and \(r.framesReceiverToSender ?? 0) frames")
        add("  bytes the relay counted (its usage record)", r.relayCopiedBytes.map { whole(Double($0)) } ?? "none",
            "plus \(r.handshakeBytes ?? 0) handshake bytes (2 lines, 2 ok)")
        add("  flights (each crosses the relay)", "\(r.flights ?? 0)", "\(r.flightsBeforeCode ?? 0) before the code")
        return lines.joined(separator: "\n")
    }

    private static func lockLimit(_ limit: LockLimit) -> String {
        guard let limitKiB = limit.kib else { return "unlimited" }
        return kib(Double(limitKiB)) + (limit.applies ? ", applies to this process"
                                                      : ", not applied (this process has CAP_IPC_LOCK)")
    }

    private static func range(_ spread: Spread, _ format: (Double) -> String) -> String {
        "[\(format(spread.min)) .. \(format(spread.max))]"
    }

    private static func milli(_ value: Double) -> String { String(format: "%.1f ms", value) }
    private static func micro(_ value: Double) -> String { String(format: value < 10 ? "%.3f µs" : "%.2f µs", value) }
    private static func ratio(_ value: Double) -> String { String(format: "%.3fx", value) }
    private static func kib(_ value: Double) -> String { whole(value) + " KiB" }

    /// `1234567` as `1,234,567`.
    static func whole(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var grouped = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { grouped.append(",") }
            grouped.append(character)
        }
        return String(grouped.reversed())
    }
}

private extension String {
    /// Right-aligned in `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
