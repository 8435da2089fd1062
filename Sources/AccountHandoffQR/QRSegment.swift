/// One run of QR data in a single encoding mode. A symbol's data is the concatenation of its
/// segments; choosing the mode per run is what makes the handoff QR dense.
public enum QRSegment: Hashable, Sendable {
    /// Decimal digits `0-9`, 10 bits per 3 digits.
    case numeric(String)
    /// QR alphanumeric characters (`0-9`, `A-Z`, space, `$%*+-./:`), 11 bits per 2 characters.
    case alphanumeric(String)
    /// Arbitrary bytes, 8 bits each.
    case bytes([UInt8])

    /// The characters QR alphanumeric mode can hold.
    public static let alphanumericCharacters = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// Whether every character fits the segment's mode.
    public var isValid: Bool {
        switch self {
        case .numeric(let digits): digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        case .alphanumeric(let text): text.utf8.allSatisfy { Self.alphanumericCharacters.contains($0) }
        case .bytes: true
        }
    }

    /// The bytes handed to the encoder.
    var data: [UInt8] {
        switch self {
        case .numeric(let text), .alphanumeric(let text): Array(text.utf8)
        case .bytes(let bytes): bytes
        }
    }
}
