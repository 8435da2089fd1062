// Runs the bench's reference session (``ReferenceSession/typical``) WARMUP times, then
// SESSIONS times inside ``measuredSessions(_:)``, so that a profiler can count what those
// sessions alone do (Scripts/allocations.sh runs it under callgrind, collecting only inside
// that function). Not a product; built for that script only.
//
//   session-probe [WARMUP [SESSIONS]]      (defaults: 50 and 10)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffBench
import Foundation

/// The sessions a profiler measures; its name is what Scripts/allocations.sh toggles on.
@inline(never)
func measuredSessions(_ count: Int, random: RandomSource, now: Date) throws(ReferenceSession.Failure) {
    for _ in 0..<count { _ = try ReferenceSession.typical.run(random: random, now: now) }
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
guard arguments.count <= 2, arguments.allSatisfy({ $0 != nil && $0! >= 0 }) else {
    FileHandle.standardError.write(Data("usage: session-probe [WARMUP [SESSIONS]]\n".utf8))
    exit(2)
}
let warmup = arguments.first.flatMap { $0 } ?? 50
let sessions = arguments.dropFirst().first.flatMap { $0 } ?? 10
let random = SystemRandomSource()
let now = Date()
do {
    for _ in 0..<warmup { _ = try ReferenceSession.typical.run(random: random, now: now) }
    try measuredSessions(sessions, random: random, now: now)
} catch {
    FileHandle.standardError.write(Data("session-probe: a session did not complete: \(error)\n".utf8))
    exit(1)
}
print("session-probe: \(warmup) warm-up and \(sessions) measured sessions completed")
