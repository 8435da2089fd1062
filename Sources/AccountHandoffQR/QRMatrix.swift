import AccountHandoff

/// A QR symbol as a square grid of modules, ready for any renderer: the terminal, SVG and PNG
/// renderers here, or an app's own drawing code.
///
/// The matrix holds only the symbol; the quiet zone (the light margin readers need) is added
/// by renderers.
public struct QRMatrix: Hashable, Sendable {
    /// The light margin, in modules, that the QR standard asks for on every side.
    public static let standardQuietZone = 4

    /// The QR version (1...40); the symbol is `17 + 4 * version` modules wide.
    public let version: Int
    /// The error-correction level of the symbol.
    public let errorCorrection: QRErrorCorrection
    /// Modules per side.
    public let size: Int
    /// Row-major modules, `true` for dark.
    public let modules: [Bool]

    /// Wraps a grid of modules; `nil` unless `rows` is square with the side a QR `version` has.
    public init?(version: Int, errorCorrection: QRErrorCorrection, rows: [[Bool]]) {
        guard (1...40).contains(version) else { return nil }
        let size = 17 + 4 * version
        guard rows.count == size, rows.allSatisfy({ $0.count == size }) else { return nil }
        self.version = version
        self.errorCorrection = errorCorrection
        self.size = size
        self.modules = rows.flatMap { $0 }
    }

    init(uncheckedVersion version: Int, errorCorrection: QRErrorCorrection, size: Int, modules: [Bool]) {
        self.version = version
        self.errorCorrection = errorCorrection
        self.size = size
        self.modules = modules
    }

    /// Whether the module at `row`, `column` is dark; positions outside the symbol are light,
    /// so renderers can read the quiet zone through the same subscript.
    public subscript(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The modules as rows, top to bottom.
    public var rows: [[Bool]] {
        (0..<size).map { row in Array(modules[row * size..<(row + 1) * size]) }
    }
}

extension QRMatrix {
    /// The densest symbol for a handoff QR: the `AH:` prefix in alphanumeric mode followed by
    /// the digits in numeric mode. libqrencode's automatic segmentation never gives a smaller
    /// version for any rendezvous length or level (`QRDensityTests` checks every one), so it
    /// is not tried again here.
    ///
    /// - Throws: ``QREncodingError`` from the encoder (not expected for a valid payload).
    public init(payload: SessionPayload, errorCorrection: QRErrorCorrection = .standard) throws(QREncodingError) {
        let text = payload.text
        let digits = String(text.utf8.dropFirst(SessionPayload.textPrefix.utf8.count))!
        try self.init(segments: [.alphanumeric(SessionPayload.textPrefix), .numeric(digits)], errorCorrection: errorCorrection)
    }

    /// Encodes `segments` in order, in the smallest version that holds them.
    ///
    /// - Throws: ``QREncodingError/invalidSegment`` when a segment's characters do not fit its
    ///   mode or there is no data; ``QREncodingError/dataTooLarge`` beyond version 40.
    public init(segments: [QRSegment], errorCorrection: QRErrorCorrection = .standard) throws(QREncodingError) {
        guard !segments.isEmpty, segments.allSatisfy({ $0.isValid && !$0.data.isEmpty }) else { throw .invalidSegment }
        self = try LibQREncode.encode(segments: segments, errorCorrection: errorCorrection)
    }

    /// Encodes `text` with libqrencode's automatic, case-sensitive mode segmentation.
    ///
    /// - Throws: ``QREncodingError/invalidSegment`` for empty text or text containing NUL;
    ///   ``QREncodingError/dataTooLarge`` beyond version 40.
    public init(automaticallySegmenting text: String, errorCorrection: QRErrorCorrection = .standard) throws(QREncodingError) {
        guard !text.isEmpty, !text.utf8.contains(0) else { throw .invalidSegment }
        self = try LibQREncode.encodeAutomatic(text, errorCorrection: errorCorrection)
    }
}
