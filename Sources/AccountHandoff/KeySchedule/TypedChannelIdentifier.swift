/// How a typed-way connection reached the sending device (Spec 12.7): bound into `CI` as its
/// kind only, so a run made through one way cannot be finished through the other. Which relay
/// is not bound: two devices may name one relay by different spellings (a name, an address),
/// and the relay token (Spec 12.8), which both must present to be paired at all, already
/// carries the relay's identity.
public enum TypedRoute: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Found on the local network by DNS-SD (Spec 11.10); `route = 01`.
    case localNetwork = 1
    /// Paired by a transit relay (Spec 12.8); `route = 02`.
    case relay = 2

    /// `route` of `CI`: one byte, the kind.
    var encoded: [UInt8] { [rawValue] }

    /// `localNetwork` or `relay`.
    public var description: String {
        switch self {
        case .localNetwork: "localNetwork"
        case .relay: "relay"
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
    package static func encode(nameplate: TypedCode.Nameplate, expiry: UInt32, route: TypedRoute, transferID: TransferID,
                               intent: TransferIntent = .sendAccount) -> [UInt8] {
        var expiryWriter = ByteWriter(capacity: 4)
        expiryWriter.write(expiry)
        return LengthValue.concatenated([label, [version], [intent.rawValue], nameplate.bytes, expiryWriter.bytes,
                                         route.encoded, transferID.bytes])
    }
}
