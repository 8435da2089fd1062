import AccountHandoff

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

/// Guarded memory for test values; a failure to get it is reported as a violation (the
/// simulation cannot go on without it).
///
/// Test support only.
public enum TestSecret {
    /// `bytes` in a new guarded buffer.
    public static func make(_ bytes: [UInt8]) throws(InvariantViolation) -> SecretBytes {
        do { return try SecretBytes(copying: bytes) } catch {
            throw InvariantViolation("no guarded memory for a test secret: \(error.identifier)")
        }
    }
}
