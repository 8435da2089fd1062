import AccountHandoff
import AccountHandoffTransport

/// A receiving device's search for the device that shows a typed code's nameplate on the
/// local network (Spec 11.10): browse ``ReceiverDiscovery/browsingTime``, then connect only
/// when exactly one address and port shows it, so that no guess is given to whichever device
/// answers.
public enum TypedSenderSearch {
    /// Browses with the platform's DNS-SD daemon (Avahi on Linux, Bonjour on Apple platforms)
    /// and decides: the one endpoint to connect to.
    ///
    /// - Throws: ``TypedSearchError`` for none, several, a refused address, or a daemon that failed.
    public static func find(_ nameplate: TypedCode.Nameplate, policy: DirectAddressPolicy = .localNetworks)
        async throws(TypedSearchError) -> TCPRendezvous.Endpoint {
        let wanted = DiscoveryNameplate(Int(nameplate.value))
        #if canImport(CAvahi)
        let browser = AvahiBrowser(lookingFor: wanted)
        #else
        let browser = BonjourBrowser(lookingFor: wanted)
        #endif
        return try await find(nameplate, with: browser, policy: policy)
    }

    /// Browses with `browser` (started for `nameplate`) and decides: the one endpoint to
    /// connect to.
    ///
    /// - Throws: ``TypedSearchError`` for none, several, a refused address, or a daemon that failed.
    public static func find(_ nameplate: TypedCode.Nameplate, with browser: any DNSSDBrowser,
                            for duration: Duration = ReceiverDiscovery.browsingTime,
                            policy: DirectAddressPolicy = .localNetworks) async throws(TypedSearchError) -> TCPRendezvous.Endpoint {
        guard let wanted = DiscoveryNameplate(Int(nameplate.value)) else { throw .notFound(nameplate) }
        let decision: DiscoveryDecision
        do { decision = try await ReceiverDiscovery.find(wanted, with: browser, for: duration, policy: policy) } catch {
            throw .discoveryFailed(error)
        }
        switch decision {
        case .connect(let address, let port):
            guard let endpoint = TCPRendezvous.Endpoint(address: address, port: port) else { throw .notFound(nameplate) }
            return endpoint
        case .notFound:
            throw .notFound(nameplate)
        case .ambiguous(let endpoints):
            throw .ambiguous(nameplate, devices: endpoints)
        case .refused(let address, let refusal):
            throw .addressRefused(nameplate, address, refusal)
        }
    }
}

/// Why a receiving device did not connect for a typed code on the local network. Nothing was
/// sent, so no guess was used: the same code can be typed again.
public enum TypedSearchError: Error, Hashable, Sendable {
    /// No device on this network shows the nameplate.
    case notFound(TypedCode.Nameplate)
    /// `devices` devices (addresses or ports) show the nameplate: refused before any run.
    case ambiguous(TypedCode.Nameplate, devices: Int)
    /// The one device showing the nameplate has an address this device does not connect to (Spec 11.8).
    case addressRefused(TypedCode.Nameplate, IPv4Address, DirectAddressPolicy.Refusal)
    /// The DNS-SD daemon failed.
    case discoveryFailed(DiscoveryError)
}

extension TypedSearchError: TranslatedSentence {
    /// A whole sentence for people, with what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .notFound(let nameplate):
            sentenceCatalog.sentence("typedSearch.notFound", .text(nameplate.description), in: language)
        case .ambiguous(let nameplate, let devices):
            sentenceCatalog.sentence("typedSearch.ambiguous", .text(nameplate.description), .number(devices), in: language)
        case .addressRefused(let nameplate, let address, _):
            sentenceCatalog.sentence("typedSearch.addressRefused", .text(nameplate.description), .text(address.description), in: language)
        case .discoveryFailed(let error):
            error.sentence(in: language)
        }
    }
}
