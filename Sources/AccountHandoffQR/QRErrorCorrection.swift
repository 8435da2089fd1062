/// How much of a QR symbol can be damaged and still decode. Higher levels need a larger symbol
/// for the same text.
public enum QRErrorCorrection: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// About 7% of the codewords can be restored.
    case low = "L"
    /// About 15% of the codewords can be restored; the default for a handoff QR on a screen.
    case medium = "M"
    /// About 25% of the codewords can be restored.
    case quartile = "Q"
    /// About 30% of the codewords can be restored.
    case high = "H"

    /// The level the handoff QR uses unless the app chooses another.
    public static let standard = QRErrorCorrection.medium

    /// Parses the one-letter name (`L`, `M`, `Q`, `H`, either case); `nil` for anything else.
    public init?(letter: String) {
        self.init(rawValue: letter.uppercased())
    }

    /// The one-letter name, e.g. `M`.
    public var description: String { rawValue }
}
