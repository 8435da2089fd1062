import HandoffCLI
import Foundation

/// The median and range of one quantity over the benchmark's repetitions.
struct Spread: Codable, Equatable {
    let median: Double
    let min: Double
    let max: Double

    /// Summarises `samples` (at least one), rounded to `decimals` places.
    init(_ samples: [Double], decimals: Int) {
        precondition(!samples.isEmpty, "a spread of no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        let scale = pow(10, Double(decimals))
        self.median = (median * scale).rounded() / scale
        self.min = (sorted.first! * scale).rounded() / scale
        self.max = (sorted.last! * scale).rounded() / scale
    }
}

/// Wall-clock timing on the monotonic clock.
enum Stopwatch {
    /// Seconds taken by `body`.
    static func seconds<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Microseconds per run of `body`, over `runs` runs.
    static func microseconds<Failure: Error>(per runs: Int, _ body: () throws(Failure) -> Void) throws(Failure) -> Double {
        let total = try seconds { () throws(Failure) in
            for _ in 0..<runs { try body() }
        }
        return total * 1e6 / Double(runs)
    }
}
