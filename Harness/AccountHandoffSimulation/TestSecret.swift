import AccountHandoff

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
