import AccountHandoff

/// Which address a sender may listen on, so that a code never advertises an address the
/// receiver cannot use, and never one that other machines can reach unless the person asked
/// for that.
///
/// - `0.0.0.0` is always refused: it names no one machine.
/// - A loopback address (127.0.0.0/8) is accepted: only this machine can reach it.
/// - Any other address must belong to an interface of this machine that is up, and is
///   accepted only when the person asked for a network address explicitly.
public enum ListeningAddressPolicy {
    /// Who can reach an accepted address.
    public enum Reach: Hashable, Sendable {
        /// Only programs on this machine (loopback).
        case thisMachine
        /// Devices on the local network: a private (RFC 1918) or link-local address.
        case localNetwork
        /// Any other address of this machine, which may be reachable beyond the local network.
        case beyondLocalNetwork
    }

    /// An address that passed the policy: what the code will advertise.
    public struct Choice: Hashable, Sendable, CustomStringConvertible {
        /// The address to listen on and advertise.
        public let address: IPv4Address
        /// The interface that has it, `nil` for loopback addresses.
        public let interfaceName: String?
        /// Who can reach it.
        public let reach: Reach

        /// A whole sentence saying what the code will advertise and who can reach it, in English.
        public var description: String { sentence(in: .english) }

        /// A whole sentence saying what the code will advertise and who can reach it.
        /// - Parameter language: The language to say it in.
        public func sentence(in language: HandoffLanguage) -> String {
            let address = SentenceArgument.text(address.description)
            let interface = SentenceArgument.text(interfaceName ?? sentenceCatalog.sentence("listening.unknownInterface", in: language))
            return switch reach {
            case .thisMachine: sentenceCatalog.sentence("listening.thisMachine", address, in: language)
            case .localNetwork: sentenceCatalog.sentence("listening.localNetwork", address, interface, in: language)
            case .beyondLocalNetwork: sentenceCatalog.sentence("listening.beyondLocalNetwork", address, interface, in: language)
            }
        }
    }

    /// Checks `address` against the policy and this machine's interfaces.
    ///
    /// - Parameter allowingNetworkAddresses: whether the person asked explicitly for an
    ///   address that other devices can reach.
    /// - Throws: ``ListeningAddressError``.
    public static func check(_ address: IPv4Address, allowingNetworkAddresses: Bool) throws(ListeningAddressError) -> Choice {
        if address.isUnspecified { throw .unspecified }
        if address.isLoopback { return Choice(address: address, interfaceName: nil, reach: .thisMachine) }
        let interfaces: [InterfaceAddress]
        do { interfaces = try InterfaceAddress.all() } catch {
            switch error {
            case .unavailable(let code): throw .interfacesUnavailable(errno: code)
            }
        }
        return try check(address, allowingNetworkAddresses: allowingNetworkAddresses, interfaces: interfaces)
    }

    /// Checks `address` against the policy and the given interface addresses.
    ///
    /// - Parameter allowingNetworkAddresses: whether the person asked explicitly for an
    ///   address that other devices can reach.
    /// - Throws: ``ListeningAddressError/unspecified`` for `0.0.0.0`;
    ///   ``ListeningAddressError/notOnThisMachine(_:available:)`` for an address no interface
    ///   that is up has; ``ListeningAddressError/networkAddressNotRequested(_:)`` for an
    ///   address of this machine other devices can reach, when the person did not ask for one.
    public static func check(_ address: IPv4Address, allowingNetworkAddresses: Bool,
                             interfaces: [InterfaceAddress]) throws(ListeningAddressError) -> Choice {
        if address.isUnspecified { throw .unspecified }
        if address.isLoopback { return Choice(address: address, interfaceName: nil, reach: .thisMachine) }
        let usable = interfaces.filter(\.isUp)
        guard let owner = usable.first(where: { $0.address == address }) else {
            var available: [IPv4Address] = [.loopback]
            for interface in usable where !interface.address.isLoopback && !available.contains(interface.address) {
                available.append(interface.address)
            }
            throw .notOnThisMachine(address, available: available)
        }
        guard allowingNetworkAddresses else { throw .networkAddressNotRequested(address) }
        let reach: Reach = address.isPrivate || address.isLinkLocal ? .localNetwork : .beyondLocalNetwork
        return Choice(address: address, interfaceName: owner.interfaceName, reach: reach)
    }
}

/// Why an address cannot be listened on and advertised.
public enum ListeningAddressError: Error, Hashable, Sendable {
    /// `0.0.0.0`, which names every address of this machine and no one of them.
    case unspecified
    /// No interface of this machine that is up has the address; `available` lists loopback
    /// and the addresses that are.
    case notOnThisMachine(IPv4Address, available: [IPv4Address])
    /// An address of this machine that other devices can reach, but the person did not ask
    /// for a network address explicitly.
    case networkAddressNotRequested(IPv4Address)
    /// This machine's addresses could not be listed (`getifaddrs` failed with this errno).
    case interfacesUnavailable(errno: Int32)
}

extension ListeningAddressError: TranslatedSentence {
    /// A whole sentence for people, with what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .unspecified:
            sentenceCatalog.sentence("listening.unspecified", in: language)
        case .notOnThisMachine(let address, let available):
            sentenceCatalog.sentence("listening.notOnThisMachine", .text(address.description),
                                     .text(available.map(\.description).joined(separator: ", ")), in: language)
        case .networkAddressNotRequested(let address):
            sentenceCatalog.sentence("listening.networkAddressNotRequested", .text(address.description), in: language)
        case .interfacesUnavailable(let code):
            sentenceCatalog.sentence("interfaces.unavailable", .text(SystemErrorWords.cause(code, in: language)), in: language)
        }
    }
}
