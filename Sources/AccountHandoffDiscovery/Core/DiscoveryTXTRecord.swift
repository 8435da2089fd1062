/// The TXT record of a typed-mode sender: exactly two strings, `v=4` then `np=NNN` (the
/// protocol version and the nameplate), nothing else. Built and read strictly: exact keys,
/// order, lengths and ASCII digits; any other record is not a sender of this version.
public enum DiscoveryTXTRecord {
    /// The version entry, `v=4`.
    public static let versionEntry: [UInt8] = Array("v=4".utf8)
    /// What the nameplate entry starts with; three ASCII digits follow.
    public static let nameplateEntryPrefix: [UInt8] = Array("np=".utf8)

    /// The record's strings for `nameplate`, in order: `v=4`, `np=NNN`.
    public static func entries(for nameplate: DiscoveryNameplate) -> [[UInt8]] {
        [versionEntry, nameplateEntryPrefix + Array(nameplate.digits.utf8)]
    }

    /// The record's RDATA (RFC 6763 6.1: each string after its one-byte length):
    /// `03 "v=4" 06 "np=NNN"`, 11 bytes.
    public static func wireFormat(for nameplate: DiscoveryNameplate) -> [UInt8] {
        entries(for: nameplate).flatMap { [UInt8($0.count)] + $0 }
    }

    /// The nameplate of a record given as its strings in order.
    ///
    /// - Throws: the ``DiscoveryIgnoreReason`` that makes the record not ours:
    ///   ``DiscoveryIgnoreReason/txtEntryCount(_:)`` unless there are exactly two strings,
    ///   ``DiscoveryIgnoreReason/versionEntryMissing`` unless the first is `v=` and digits,
    ///   ``DiscoveryIgnoreReason/otherVersion`` when those digits are not `4`,
    ///   ``DiscoveryIgnoreReason/nameplateEntryMalformed`` unless the second is exactly
    ///   `np=` and three ASCII digits.
    public static func nameplate(inEntries entries: [[UInt8]]) throws(DiscoveryIgnoreReason) -> DiscoveryNameplate {
        guard entries.count == 2 else { throw .txtEntryCount(entries.count) }
        let version = entries[0]
        if version != versionEntry {
            let digits = version.dropFirst(2)
            let isVersion = version.starts(with: Array("v=".utf8)) && !digits.isEmpty && digits.allSatisfy { (0x30...0x39).contains($0) }
            throw isVersion ? .otherVersion : .versionEntryMissing
        }
        let entry = entries[1]
        guard entry.count == nameplateEntryPrefix.count + 3, entry.starts(with: nameplateEntryPrefix),
              let nameplate = DiscoveryNameplate(asciiDigits: Array(entry.suffix(3))) else { throw .nameplateEntryMalformed }
        return nameplate
    }

    /// The nameplate of a record given as its RDATA (length-prefixed strings).
    ///
    /// - Throws: ``DiscoveryIgnoreReason/txtMalformed`` when a length runs past the end;
    ///   otherwise as ``nameplate(inEntries:)``.
    public static func nameplate(inWireFormat bytes: [UInt8]) throws(DiscoveryIgnoreReason) -> DiscoveryNameplate {
        try nameplate(inEntries: strings(inWireFormat: bytes))
    }

    /// The strings of a record given as its RDATA, in order, empty ones included.
    ///
    /// - Throws: ``DiscoveryIgnoreReason/txtMalformed`` when a length runs past the end.
    public static func strings(inWireFormat bytes: [UInt8]) throws(DiscoveryIgnoreReason) -> [[UInt8]] {
        var strings: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1
            guard length <= bytes.count - offset else { throw .txtMalformed }
            strings.append(Array(bytes[offset..<offset + length]))
            offset += length
        }
        return strings
    }
}
