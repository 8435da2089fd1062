import AccountHandoff
import AccountHandoffImport
import Foundation

/// The readiness check of a certificate authority file (``IMAPValidatorConfiguration/Trust/certificateAuthorityFile(_:)``):
/// it must be a readable regular file of at most 1 MiB holding at least one PEM certificate
/// whose body is DER (an ASN.1 SEQUENCE whose encoded length is the body's), and nothing
/// between its blocks that is not whitespace. A file that fails this would make every login
/// fail after the password travelled, so it is refused before (Spec 6.7).
enum CertificateAuthorityFile {
    static let maximumByteCount = 1 << 20

    /// - Throws: ``AccountHandoffImport/ValidationFailure/validatorNotReady(reason:)`` with a
    ///   sentence in `language` naming the file and what to do.
    static func check(_ url: URL, in language: HandoffLanguage) throws(ValidationFailure) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .validatorNotReady(reason: sentenceCatalog.sentence("caFile.missing", .text(path), in: language))
        }
        guard let data = BlockingCall.run("read", { FileManager.default.contents(atPath: path) }) else {
            throw .validatorNotReady(reason: sentenceCatalog.sentence("caFile.unreadable", .text(path), in: language))
        }
        guard data.count <= maximumByteCount else {
            throw .validatorNotReady(reason: sentenceCatalog.sentence("caFile.tooLarge", .text(path), in: language))
        }
        guard let text = String(data: data, encoding: .utf8), let count = certificateCount(text), count > 0 else {
            throw .validatorNotReady(reason: sentenceCatalog.sentence("caFile.noCertificate", .text(path), in: language))
        }
    }

    /// How many well-formed PEM certificates `text` holds; `nil` when it holds anything else.
    static func certificateCount(_ text: String) -> Int? {
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        var rest = Substring(text)
        var count = 0
        while true {
            let before = rest.prefix { $0 != "-" }
            guard before.allSatisfy(\.isWhitespace) else { return nil }
            rest = rest.dropFirst(before.count)
            if rest.isEmpty { return count }
            guard rest.hasPrefix(begin), let close = rest.range(of: end) else { return nil }
            let body = rest[rest.index(rest.startIndex, offsetBy: begin.count)..<close.lowerBound]
            guard let der = Data(base64Encoded: String(body.filter { !$0.isWhitespace })), isDERSequence(der) else { return nil }
            count += 1
            rest = rest[close.upperBound...]
        }
    }

    /// Whether `der` is one ASN.1 SEQUENCE whose definite length covers exactly the rest.
    private static func isDERSequence(_ der: Data) -> Bool {
        let bytes = [UInt8](der)
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        if first < 0x80 { return bytes.count == 2 + first }
        let lengthBytes = first & 0x7F
        guard (1...4).contains(lengthBytes), bytes.count >= 2 + lengthBytes else { return false }
        let length = bytes[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
        return bytes.count == 2 + lengthBytes + length
    }
}
