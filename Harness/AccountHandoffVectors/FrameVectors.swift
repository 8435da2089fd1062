import AccountHandoff
import AccountHandoffTestSupport

/// `frames.json`: each message type encoded from its fields, and invalid frames with the error
/// of the first failing check (Spec 3.1-3.3).
enum FrameVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Frames (Spec 3): header fields and body to exact bytes; invalid frames with the error of the first failing decoding check (Spec 3.3). Bodies here are arbitrary bytes of valid length: frame decoding does not decrypt."),
            "valid": .array(try valid()),
            "invalid": .array(try invalid()),
        ])
    }

    static let transferID = TransferID(bytes: VectorSupport.bytes(seed: VectorSupport.seed("frames/transferID"), count: 16))!

    private static func body(_ name: String, _ count: Int) -> [UInt8] {
        VectorSupport.bytes(seed: VectorSupport.seed("frames/body/" + name), count: count)
    }

    private static func valid() throws -> [JSONValue] {
        let cases: [(String, MessageType, UInt32, Int)] = [
            ("hello (88 bytes)", .hello, 0, 64),
            ("reveal (72 bytes)", .reveal, 0, 48),
            ("offer, one 256-byte block (296 bytes)", .offer, 1, 272),
            ("offer, two blocks (552 bytes)", .offer, 1, 528),
            ("offer, 15 blocks: the largest valid frame (3880 bytes)", .offer, 1, 3856),
            ("accept (41 bytes)", .accept, 1, 17),
            ("credential (1064 bytes)", .credential, 2, 1040),
            ("receipt (41 bytes)", .receipt, 2, 17),
            ("abort (41 bytes)", .abort, 7, 17),
            ("abort with sequence 2^32 - 1 (41 bytes)", .abort, UInt32.max, 17),
            ("pakeInit (76 bytes)", .pakeInit, 0, 52),
            ("pakeReply (104 bytes)", .pakeReply, 0, 80),
            ("pakeConfirm (56 bytes)", .pakeConfirm, 1, 32),
            ("pakeRefused (24 bytes)", .pakeRefused, 1, 0),
        ]
        return try cases.map { name, type, sequence, length in
            let payload = body(name, length)
            let bytes = VectorPrimitives.frameBytes(type: type, transferID: transferID, sequence: sequence, body: payload)
            let decoded = try Frame(bytes: bytes)
            guard decoded.type == type, decoded.sequence == sequence, decoded.body == payload, decoded.bytes == bytes,
                  name.contains("(\(bytes.count) bytes)") else {
                throw VectorGenerationError("frame \(name) does not round-trip or does not match its name")
            }
            return .object(["name": .string(name), "type": .string(type.description), "typeValue": .number(type.rawValue),
                            "transferID": .hex(transferID.bytes), "sequence": .number(sequence), "body": .hex(payload),
                            "header": .hex(decoded.header), "bytes": .hex(bytes), "length": .number(bytes.count)])
        }
    }

    private static func invalid() throws -> [JSONValue] {
        let hello = VectorPrimitives.frameBytes(type: .hello, transferID: transferID, sequence: 0, body: body("hello", 64))
        func withBody(_ type: MessageType, _ length: Int) -> [UInt8] {
            VectorPrimitives.frameBytes(type: type, transferID: transferID, sequence: 0, body: body("bad", length))
        }
        let patched = VectorSupport.patched
        /// A header that claims `bodyLength` followed by `present` body bytes.
        func claiming(_ type: UInt8, bodyLength: Int, present: Int) -> [UInt8] {
            [SessionPayload.currentVersion, type] + transferID.bytes + [0, 0, 0, 0, UInt8(bodyLength >> 8), UInt8(bodyLength & 0xff)] + body("claim", present)
        }
        let cases: [(String, [UInt8], HandoffError)] = [
            // F1
            ("4097 bytes: offer with a 4073-byte body (F1)", withBody(.offer, 4073), .oversizedFrame(4097)),
            ("4097 bytes with version 9 (F1 before F3)", patched(withBody(.offer, 4073), 0, 9), .oversizedFrame(4097)),
            ("4097 bytes with a body length of 0 (F1 before F6)", claiming(2, bodyLength: 0, present: 4073), .oversizedFrame(4097)),
            ("4097 bytes with type 12 (F1 before F4)", claiming(12, bodyLength: 4073, present: 4073), .oversizedFrame(4097)),
            ("4097 bytes claiming a 65535-byte body (F1 before F5)", claiming(2, bodyLength: 65535, present: 4073), .oversizedFrame(4097)),
            ("4096 bytes: offer with a 4072-byte body passes F1, fails F7", withBody(.offer, 4072), .malformed(.body)),
            ("4096 bytes claiming a 4071-byte body passes F1, fails F6", claiming(2, bodyLength: 4071, present: 4072), .malformed(.trailingBytes)),
            // F2
            ("0 bytes (F2)", [], .malformed(.frameHeader)),
            ("23 bytes (F2)", Array(hello.prefix(23)), .malformed(.frameHeader)),
            ("23 bytes with version 9 (F2 before F3)", patched(Array(hello.prefix(23)), 0, 9), .malformed(.frameHeader)),
            ("23 bytes with type 12 (F2 before F4)", patched(Array(hello.prefix(23)), 1, 12), .malformed(.frameHeader)),
            // F3
            ("version 1: a version-1 hello (F3)", patched(hello, 0, 1), .unsupportedVersion(1)),
            ("version 0 (F3)", patched(hello, 0, 0), .unsupportedVersion(0)),
            ("version 2: a version-2 hello (F3)", patched(hello, 0, 2), .unsupportedVersion(2)),
            ("version 3: a version-3 hello (F3)", patched(hello, 0, 3), .unsupportedVersion(3)),
            ("version 5 (F3)", patched(hello, 0, 5), .unsupportedVersion(5)),
            ("version 1 with type 12 (F3 before F4)", patched(patched(hello, 0, 1), 1, 12), .unsupportedVersion(1)),
            ("24-byte header only, version 1 (F3 before F5)", patched(Array(hello.prefix(24)), 0, 1), .unsupportedVersion(1)),
            ("version 1 and a trailing byte (F3 before F6)", patched(hello, 0, 1) + [0], .unsupportedVersion(1)),
            ("version 1 hello with a 63-byte body (F3 before F7)", patched(withBody(.hello, 63), 0, 1), .unsupportedVersion(1)),
            // F4
            ("type 0 (F4)", patched(hello, 1, 0), .unknownMessageType(0)),
            ("type 12: the first undefined type (F4)", patched(hello, 1, 12), .unknownMessageType(12)),
            ("type 255 with a bad body length (F4 before F5)", patched(patched(hello, 1, 255), 23, 65), .unknownMessageType(255)),
            ("type 12 and a trailing byte (F4 before F6)", patched(hello, 1, 12) + [0], .unknownMessageType(12)),
            // F5
            ("body length 65 with 64 bytes present (F5)", patched(hello, 23, 65), .malformed(.frameLength)),
            ("24-byte header only, body length 64 (F5)", Array(hello.prefix(24)), .malformed(.frameLength)),
            ("body length 65535 with 64 bytes present (F5)", patched(patched(hello, 22, 0xff), 23, 0xff), .malformed(.frameLength)),
            // F6
            ("one trailing byte after a hello (F6)", hello + [0], .malformed(.trailingBytes)),
            ("body length 63 with 64 bytes present (F6 before F7)", patched(hello, 23, 63), .malformed(.trailingBytes)),
            // F7, each type below and above its valid lengths
            ("hello body 63 (F7)", withBody(.hello, 63), .malformed(.body)),
            ("hello body 65 (F7)", withBody(.hello, 65), .malformed(.body)),
            ("reveal body 47 (F7)", withBody(.reveal, 47), .malformed(.body)),
            ("reveal body 49 (F7)", withBody(.reveal, 49), .malformed(.body)),
            ("reveal body 0 (F7)", withBody(.reveal, 0), .malformed(.body)),
            ("offer body 16: empty plaintext (F7)", withBody(.offer, 16), .malformed(.body)),
            ("offer body 256: plaintext 240 (F7)", withBody(.offer, 256), .malformed(.body)),
            ("offer body 271: plaintext 255 (F7)", withBody(.offer, 271), .malformed(.body)),
            ("offer body 273: plaintext 257 (F7)", withBody(.offer, 273), .malformed(.body)),
            ("offer body 527: plaintext 511 (F7)", withBody(.offer, 527), .malformed(.body)),
            ("offer body 400: plaintext 384, a multiple of 128 but not of 256 (F7)", withBody(.offer, 400), .malformed(.body)),
            ("accept body 0 (F7)", withBody(.accept, 0), .malformed(.body)),
            ("accept body 16 (F7: the version-3 empty accept)", withBody(.accept, 16), .malformed(.body)),
            ("accept body 18 (F7)", withBody(.accept, 18), .malformed(.body)),
            ("credential body 1039 (F7)", withBody(.credential, 1039), .malformed(.body)),
            ("credential body 1041 (F7)", withBody(.credential, 1041), .malformed(.body)),
            ("receipt body 16 (F7)", withBody(.receipt, 16), .malformed(.body)),
            ("receipt body 18 (F7)", withBody(.receipt, 18), .malformed(.body)),
            ("abort body 0 (F7)", withBody(.abort, 0), .malformed(.body)),
            ("abort body 18 (F7)", withBody(.abort, 18), .malformed(.body)),
            ("pakeInit body 51 (F7)", withBody(.pakeInit, 51), .malformed(.body)),
            ("pakeInit body 53 (F7)", withBody(.pakeInit, 53), .malformed(.body)),
            ("pakeReply body 79 (F7)", withBody(.pakeReply, 79), .malformed(.body)),
            ("pakeReply body 81 (F7)", withBody(.pakeReply, 81), .malformed(.body)),
            ("pakeConfirm body 31 (F7)", withBody(.pakeConfirm, 31), .malformed(.body)),
            ("pakeConfirm body 33 (F7)", withBody(.pakeConfirm, 33), .malformed(.body)),
            ("pakeConfirm body 0 (F7)", withBody(.pakeConfirm, 0), .malformed(.body)),
            ("pakeRefused body 1 (F7)", withBody(.pakeRefused, 1), .malformed(.body)),
        ]
        return try cases.map { name, bytes, expected in
            try VectorSupport.expectError(expected, "frame \(name)") { () throws(HandoffError) in _ = try Frame(bytes: bytes) }
            for claim in ["4097 bytes", "4096 bytes", "23 bytes", "0 bytes"] where name.hasPrefix(claim) {
                guard "\(bytes.count) bytes" == claim else { throw VectorGenerationError("frame \(name) has \(bytes.count) bytes") }
            }
            return .object(["name": .string(name), "bytes": .hex(bytes), "length": .number(bytes.count), "error": .string(expected.identifier)])
        }
    }
}
