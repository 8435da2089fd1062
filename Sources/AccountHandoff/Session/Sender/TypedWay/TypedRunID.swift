/// Names one CPace run of the typed way (Spec 6.1): the run's `sid`, 16 random bytes the
/// sending device drew. The sending driver keeps it with the connection that asked for the run,
/// so that it can tell the session when that connection closes
/// (``SenderEvent/typedRunEnded(_:)``) and which connection paired
/// (``SenderAction/pairedByTypedCode(_:)``).
public struct TypedRunID: Hashable, Sendable, CustomStringConvertible {
    /// The run's `sid` (public: it travels in the clear in `pakeInit`).
    public let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The `sid` in lowercase hex.
    public var description: String { Hex.encode(bytes) }
}

/// Why the sending device stopped offering the typed way (Spec 6.1). The QR stays, unless the
/// session paired by the QR.
public enum TypedWayWithdrawal: String, Hashable, Sendable, CustomStringConvertible {
    /// Three devices tried wrong codes (Spec 8.8): typing a code is turned off for this transfer.
    case wrongGuesses
    /// A receiving device paired by scanning the QR: the typed way is no longer needed.
    case pairedByQR
    /// The nameplate's name on the local network was taken 8 times in a row.
    case namesTaken

    /// The raw name, e.g. `wrongGuesses`.
    public var description: String { rawValue }
}
