/// The data of one QR symbol found in a picture, as zbar decoded it (raw bytes, no character
/// set guessed). It may be a transfer code, which is a secret until its transfer ends, so
/// ``description`` and reflection show only its length.
public struct ScannedQRCode: Hashable, Sendable {
    /// The symbol's data.
    public let bytes: [UInt8]

    /// Wraps a symbol's data.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}

extension ScannedQRCode: CustomStringConvertible, CustomReflectable {
    /// The length only.
    public var description: String { "ScannedQRCode(\(bytes.count) bytes)" }

    /// The length only, as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["byteCount": bytes.count], displayStyle: .struct) }
}
