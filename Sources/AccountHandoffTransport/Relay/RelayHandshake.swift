import AccountHandoff

/// The magic-wormhole transit relay's handshake (Spec 11.7): each device sends one line, and
/// the relay answers `ok\n` once it has paired two connections with the same token and
/// different sides; from then on it copies bytes both ways.
///
/// ```
/// "please relay " | hex(relayToken) | " for side " | hex(side) | "\n"     device to relay
/// "ok\n"                                                                  relay to device, once paired
/// ```
///
/// Nothing in the line is secret: the token and the sender's side are one-way functions of
/// the QR (Spec 11.3), and a receiver's side is fresh randomness per connection.
public enum RelayHandshake {
    /// The relay's answer once it paired the connection.
    public static let okay = Array("ok\n".utf8)
    /// Bytes of a side.
    public static let sideByteCount = TransportKeys.senderSideByteCount

    /// The line a device sends first, lowercase hex.
    ///
    /// - Parameters:
    ///   - relayToken: the QR's 32-byte relay token (Spec 11.3).
    ///   - side: the sender's side, or a receiver's fresh 8 bytes.
    public static func line(relayToken: [UInt8], side: [UInt8]) -> [UInt8] {
        precondition(relayToken.count == TransportKeys.relayTokenByteCount && side.count == sideByteCount, "relay token or side size")
        return Array("please relay \(Hex.encode(relayToken)) for side \(Hex.encode(side))\n".utf8)
    }

    /// The sender's line for the QR whose transport keys are `keys`.
    public static func senderLine(_ keys: TransportKeys) -> [UInt8] {
        line(relayToken: keys.relayToken, side: keys.senderSide)
    }

    /// A receiver's side for one relay connection: 8 fresh random bytes, drawn again in the
    /// unlikely case they equal the sender's side (the relay would never pair the two).
    public static func receiverSide(senderSide: [UInt8], random: some RandomSource) -> [UInt8] {
        while true {
            var side = [UInt8](repeating: 0, count: sideByteCount)
            side.withUnsafeMutableBytes { random.fill($0) }
            if side != senderSide { return side }
        }
    }

    /// What the bytes read so far after the line say: `true` once they are `ok\n`, `false`
    /// while they may still become it.
    ///
    /// - Throws: ``TransportError/relayClosed`` as soon as a byte differs (the relay said
    ///   something else, such as `bad handshake` or `impatient`).
    static func isPaired(_ received: [UInt8]) throws(TransportError) -> Bool {
        guard received.count <= okay.count, received.elementsEqual(okay.prefix(received.count)) else { throw .relayClosed }
        return received.count == okay.count
    }
}
