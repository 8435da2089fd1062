/// A broken safety property found by the simulation: a fuzz target turns it into a crash,
/// a test into a failure. Its text names the property and the steps that led there, never
/// secret bytes.
///
/// Test support only.
public struct InvariantViolation: Error, CustomStringConvertible {
    /// Which property broke and how.
    public let message: String
    /// The steps taken so far, oldest first.
    public let trace: [String]

    /// Creates a violation report.
    public init(_ message: String, trace: [String] = []) {
        self.message = message
        self.trace = trace
    }

    /// The message followed by the trace.
    public var description: String {
        "invariant violated: \(message)\n  after: " + trace.suffix(40).joined(separator: " | ")
    }
}
