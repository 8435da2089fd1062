/// How a typed-mode connection reached the sending device; bound into `CI` (Spec 12.7), so a
/// run made through one way cannot be finished through another.
package enum TypedRoute: Hashable, Sendable {
    /// Found on the local network by DNS-SD (Spec 12.8).
    case localNetwork
    /// Paired by a transit relay; `host` is the relay host in its form of Spec 11.2 (a
    /// lowercase name or a dotted IPv4 address) as the device was configured with it.
    case relay(host: String, port: UInt16)

    /// `route` of `CI`: `01` for the local network, `02 | u16 relayPort | relayHost` (ASCII)
    /// for a relay.
    ///
    /// - Throws: ``HandoffError/invalidConfiguration`` for a relay port of 0, or a relay host
    ///   that is empty, longer than 253 bytes, or not ASCII.
    func encoded() throws(HandoffError) -> [UInt8] {
        switch self {
        case .localNetwork:
            return [0x01]
        case .relay(let host, let port):
            let hostBytes = Array(host.utf8)
            guard port != 0, (1...253).contains(hostBytes.count), hostBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                throw .invalidConfiguration
            }
            var writer = ByteWriter(capacity: 3 + hostBytes.count)
            writer.write(UInt8(0x02))
            writer.write(port)
            writer.write(hostBytes)
            return writer.bytes
        }
    }
}

/// `CI`, the channel identifier of a typed-mode CPace run (Spec 12.7):
///
/// ```
/// CI = lv_cat("AH4 typed channel", version u8 = 4, intent u8 = 1, nameplate (3 ASCII digits),
///             expiry u32, route, transferID[16])
/// ```
///
/// Both devices must hold the same view of every field, or their keys differ; everything in
/// it is public.
package enum TypedChannelIdentifier {
    /// The first field.
    static let label = Array("AH4 typed channel".utf8)
    /// The protocol version of the typed mode.
    package static let version: UInt8 = 4

    /// The `CI` of a run.
    ///
    /// - Parameters:
    ///   - nameplate: The code's nameplate.
    ///   - expiry: The sending session's expiry (Unix seconds).
    ///   - route: How the connection reached the sender.
    ///   - transferID: The sending session's transfer ID.
    ///   - intent: The transfer's intent (`sendAccount`).
    /// - Throws: ``HandoffError/invalidConfiguration`` for a relay route that cannot be encoded.
    package static func encode(nameplate: TypedCode.Nameplate, expiry: UInt32, route: TypedRoute, transferID: TransferID,
                               intent: TransferIntent = .sendAccount) throws(HandoffError) -> [UInt8] {
        var expiryWriter = ByteWriter(capacity: 4)
        expiryWriter.write(expiry)
        return LengthValue.concatenated([label, [version], [intent.rawValue], nameplate.bytes, expiryWriter.bytes,
                                         try route.encoded(), transferID.bytes])
    }
}
