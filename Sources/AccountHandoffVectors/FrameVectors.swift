@_spi(Vectors) import AccountHandoff

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
            ("hello", .hello, 0, 64),
            ("offer, one 256-byte block", .offer, 0, 272),
            ("offer, two blocks", .offer, 0, 528),
            ("offer, largest (15 blocks, 4096-byte frame)", .offer, 0, 3856),
            ("accept", .accept, 1, 16),
            ("credential", .credential, 1, 1040),
            ("receipt", .receipt, 2, 17),
            ("abort", .abort, 7, 17),
            ("abort with sequence 2^32 - 1", .abort, UInt32.max, 17),
        ]
        return try cases.map { name, type, sequence, length in
            let payload = body(name, length)
            let bytes = VectorPrimitives.frameBytes(type: type, transferID: transferID, sequence: sequence, body: payload)
            let decoded = try Frame(bytes: bytes)
            guard decoded.type == type, decoded.sequence == sequence, decoded.body == payload, decoded.bytes == bytes else {
                throw VectorGenerationError("frame \(name) does not round-trip")
            }
            return .object(["name": .string(name), "type": .string(type.description), "typeValue": .number(type.rawValue),
                            "transferID": .hex(transferID.bytes), "sequence": .number(sequence), "body": .hex(payload),
                            "header": .hex(decoded.header), "bytes": .hex(bytes)])
        }
    }

    private static func invalid() throws -> [JSONValue] {
        let hello = VectorPrimitives.frameBytes(type: .hello, transferID: transferID, sequence: 0, body: body("hello", 64))
        func withBody(_ type: MessageType, _ length: Int) -> [UInt8] {
            VectorPrimitives.frameBytes(type: type, transferID: transferID, sequence: 0, body: body("bad", length))
        }
        func patched(_ bytes: [UInt8], _ index: Int, _ value: UInt8) -> [UInt8] {
            var copy = bytes
            copy[index] = value
            return copy
        }
        let cases: [(String, [UInt8], HandoffError)] = [
            ("4097 bytes", withBody(.offer, 4073), .oversizedFrame(4097)),
            ("4097 bytes with version 9 (size is checked first)", patched(withBody(.offer, 4073), 0, 9), .oversizedFrame(4097)),
            ("empty", [], .malformed(.frameHeader)),
            ("23 bytes", Array(hello.prefix(23)), .malformed(.frameHeader)),
            ("23 bytes with version 9 (length is checked first)", patched(Array(hello.prefix(23)), 0, 9), .malformed(.frameHeader)),
            ("version 0", patched(hello, 0, 0), .unsupportedVersion(0)),
            ("version 2", patched(hello, 0, 2), .unsupportedVersion(2)),
            ("type 0", patched(hello, 1, 0), .unknownMessageType(0)),
            ("type 7", patched(hello, 1, 7), .unknownMessageType(7)),
            ("type 255 with a bad length (type is checked first)", patched(patched(hello, 1, 255), 23, 0), .unknownMessageType(255)),
            ("body length 65 with 64 bytes present", patched(hello, 23, 65), .malformed(.frameLength)),
            ("header only, body length 64", Array(hello.prefix(24)), .malformed(.frameLength)),
            ("one trailing byte", hello + [0], .malformed(.trailingBytes)),
            ("body length 63 with 64 bytes present", patched(hello, 23, 63), .malformed(.trailingBytes)),
            ("hello body 63", withBody(.hello, 63), .malformed(.body)),
            ("hello body 65", withBody(.hello, 65), .malformed(.body)),
            ("offer body 16 (empty plaintext)", withBody(.offer, 16), .malformed(.body)),
            ("offer body 256 (plaintext 240)", withBody(.offer, 256), .malformed(.body)),
            ("offer body 273 (plaintext 257)", withBody(.offer, 273), .malformed(.body)),
            ("accept body 0", withBody(.accept, 0), .malformed(.body)),
            ("accept body 17", withBody(.accept, 17), .malformed(.body)),
            ("credential body 1039", withBody(.credential, 1039), .malformed(.body)),
            ("credential body 1041", withBody(.credential, 1041), .malformed(.body)),
            ("receipt body 16", withBody(.receipt, 16), .malformed(.body)),
            ("receipt body 18", withBody(.receipt, 18), .malformed(.body)),
            ("abort body 0", withBody(.abort, 0), .malformed(.body)),
            ("abort body 18", withBody(.abort, 18), .malformed(.body)),
        ]
        return try cases.map { name, bytes, expected in
            do {
                _ = try Frame(bytes: bytes)
                throw VectorGenerationError("invalid frame accepted: \(name)")
            } catch let error as HandoffError {
                guard error == expected else { throw VectorGenerationError("frame \(name): \(error.identifier)") }
            }
            return .object(["name": .string(name), "bytes": .hex(bytes), "error": .string(expected.identifier)])
        }
    }
}
