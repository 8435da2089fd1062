import AccountHandoff
import Foundation

/// Why a rendezvous token cannot be read or built (Spec 11.1, 11.2). Every case is
/// `unsupportedRendezvous` in Spec terms; ``rule`` names the rule that refused it, as
/// `Vectors/transport.json` does.
public enum RendezvousTokenError: Error, Hashable, Sendable {
    /// The token has no bytes.
    case empty
    /// A flag bit other than 0x01, 0x02 and 0x04 is set.
    case unknownFlags(UInt8)
    /// Flag 0x02 (an IPv4 address) without 0x01 (a direct address).
    case addressWithoutDirect
    /// Neither a direct address (0x01) nor a relay (0x04).
    case noRoute
    /// The token ends inside a field.
    case truncated
    /// A port of 0.
    case zeroPort
    /// Bytes after the direct address in a token without a relay.
    case trailingBytes
    /// The packed relay host has an odd number of bytes.
    case oddRelayHostLength
    /// A packed group of the relay host is 59,319 or more.
    case relayHostGroupOutOfRange
    /// A packed group of the relay host holds only `pad`s.
    case relayHostPadGroup
    /// A `pad` in the relay host other than at the end of the last group.
    case misplacedRelayHostPad
    /// The relay host is not a lowercase letter-digit-hyphen name or dotted IPv4 address of
    /// 1...42 characters.
    case invalidRelayHost
    /// The fields do not fit in the 32 bytes of a token (building one).
    case tooLong(Int)

    /// The rule's name, as in `Vectors/transport.json`.
    public var rule: String {
        switch self {
        case .empty: "empty"
        case .unknownFlags: "unknownFlags"
        case .addressWithoutDirect: "addressWithoutDirect"
        case .noRoute: "noRoute"
        case .truncated: "truncated"
        case .zeroPort: "zeroPort"
        case .trailingBytes: "trailingBytes"
        case .oddRelayHostLength: "relayHost.oddLength"
        case .relayHostGroupOutOfRange: "relayHost.groupOutOfRange"
        case .relayHostPadGroup: "relayHost.padGroup"
        case .misplacedRelayHostPad: "relayHost.misplacedPad"
        case .invalidRelayHost: "relayHost.invalid"
        case .tooLong: "tooLong"
        }
    }
}

extension RendezvousTokenError: TranslatedSentence {
    /// A whole sentence: what is wrong with the code, and what to do.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .tooLong(let count):
            sentenceCatalog.sentence("rendezvous.tooLong", .number(count), in: language)
        case .empty, .unknownFlags, .addressWithoutDirect, .noRoute, .truncated, .zeroPort, .trailingBytes, .oddRelayHostLength,
             .relayHostGroupOutOfRange, .relayHostPadGroup, .misplacedRelayHostPad, .invalidRelayHost:
            sentenceCatalog.sentence("rendezvous.unsupported", .text(rule), in: language)
        }
    }
}
