/// The DER structure NSS's Secret Decoder Ring (SDR) writes for every value it encrypts, and
/// Thunderbird stores base64-encoded in `logins.json`:
///
///     SEQUENCE { keyID OCTET STRING,
///                SEQUENCE { algorithm OBJECT IDENTIFIER, iv OCTET STRING },
///                ciphertext OCTET STRING }
///
/// Decoding is strict: definite, minimally encoded lengths, exactly these elements, a known
/// algorithm with an IV of its block size, a ciphertext of whole blocks, no trailing bytes.
struct SDREnvelope: Equatable {
    /// The cipher of an envelope.
    enum Algorithm: Equatable {
        /// AES-256-CBC (OID 2.16.840.1.101.3.4.1.42): what Thunderbird writes since it moved
        /// its SDR to AES.
        case aes256CBC
        /// Triple DES in CBC mode (OID 1.2.840.113549.3.7): what older Thunderbirds wrote.
        case desEDE3CBC

        var objectIdentifier: [UInt8] {
            switch self {
            case .aes256CBC: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A]
            case .desEDE3CBC: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x03, 0x07]
            }
        }

        /// The block size, which is also the IV's length.
        var blockSize: Int {
            switch self {
            case .aes256CBC: 16
            case .desEDE3CBC: 8
            }
        }
    }

    /// The key ID every SDR value carries: NSS's default SDR key.
    static let defaultKeyID: [UInt8] = [0xF8] + Array(repeating: 0, count: 14) + [0x01]
    /// The longest envelope decoded (a login field is far shorter).
    static let maximumByteCount = 64 * 1024

    let keyID: [UInt8]
    let algorithm: Algorithm
    let iv: [UInt8]
    let ciphertext: [UInt8]

    /// Why bytes are not an envelope.
    struct Malformed: Error {}

    /// Decodes `bytes`.
    ///
    /// - Throws: ``Malformed`` for anything but exactly the structure above.
    init(der bytes: [UInt8]) throws(Malformed) {
        guard bytes.count <= Self.maximumByteCount else { throw Malformed() }
        var outer = DERReader(bytes[...])
        var body = try outer.element(tag: 0x30)
        guard outer.isAtEnd else { throw Malformed() }
        let keyID = try body.element(tag: 0x04).rest
        var parameters = try body.element(tag: 0x30)
        let ciphertext = try body.element(tag: 0x04).rest
        guard body.isAtEnd else { throw Malformed() }
        let identifier = try parameters.element(tag: 0x06).rest
        let iv = try parameters.element(tag: 0x04).rest
        guard parameters.isAtEnd else { throw Malformed() }
        let algorithm: Algorithm
        if identifier.elementsEqual(Algorithm.aes256CBC.objectIdentifier) {
            algorithm = .aes256CBC
        } else if identifier.elementsEqual(Algorithm.desEDE3CBC.objectIdentifier) {
            algorithm = .desEDE3CBC
        } else {
            throw Malformed()
        }
        guard !keyID.isEmpty, keyID.count <= 64, iv.count == algorithm.blockSize,
              !ciphertext.isEmpty, ciphertext.count % algorithm.blockSize == 0 else { throw Malformed() }
        self.keyID = Array(keyID)
        self.algorithm = algorithm
        self.iv = Array(iv)
        self.ciphertext = Array(ciphertext)
    }

    init(keyID: [UInt8], algorithm: Algorithm, iv: [UInt8], ciphertext: [UInt8]) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.iv = iv
        self.ciphertext = ciphertext
    }

    /// The DER bytes.
    var der: [UInt8] {
        let parameters = DERWriter.element(0x06, algorithm.objectIdentifier) + DERWriter.element(0x04, iv)
        let body = DERWriter.element(0x04, keyID) + DERWriter.element(0x30, parameters) + DERWriter.element(0x04, ciphertext)
        return DERWriter.element(0x30, body)
    }
}

/// Reads DER elements with definite, minimally encoded lengths.
private struct DERReader {
    private(set) var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    var isAtEnd: Bool { rest.isEmpty }

    /// The contents of the next element, which must have `tag`.
    mutating func element(tag: UInt8) throws(SDREnvelope.Malformed) -> DERReader {
        guard rest.count >= 2, rest[rest.startIndex] == tag else { throw SDREnvelope.Malformed() }
        let first = rest[rest.startIndex + 1]
        var index = rest.startIndex + 2
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 2, rest.count >= 2 + count else { throw SDREnvelope.Malformed() }
            for _ in 0..<count {
                length = length << 8 | Int(rest[index])
                index += 1
            }
            // Minimal: the long form only from 128, and no leading zero byte.
            guard length >= 0x80, !(count == 2 && length < 0x100) else { throw SDREnvelope.Malformed() }
        }
        guard rest.endIndex - index >= length else { throw SDREnvelope.Malformed() }
        let contents = rest[index..<(index + length)]
        rest = rest[(index + length)...]
        return DERReader(contents)
    }
}

/// Writes DER elements.
private enum DERWriter {
    static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        let count = contents.count
        precondition(count < 0x10000, "an SDR element is shorter than 64 KiB")
        let length: [UInt8] = switch count {
        case ..<0x80: [UInt8(count)]
        case ..<0x100: [0x81, UInt8(count)]
        default: [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
        return [tag] + length + contents
    }
}
