import AccountHandoff

/// What discovery was doing when the daemon failed, for its error's sentence.
public enum DiscoveryOperation: Hashable, Sendable {
    /// Connecting to the daemon.
    case connect
    /// Advertising this device's code.
    case advertise
    /// Looking for the other device's code.
    case browse
    /// Resolving a found service to its address and port.
    case resolve

    /// What failed, as the end of "This device could not ...".
    func words(in language: HandoffLanguage) -> String {
        switch self {
        case .connect: sentenceCatalog.sentence("discovery.operation.connect", in: language)
        case .advertise: sentenceCatalog.sentence("discovery.operation.advertise", in: language)
        case .browse: sentenceCatalog.sentence("discovery.operation.browse", in: language)
        case .resolve: sentenceCatalog.sentence("discovery.operation.resolve", in: language)
        }
    }
}
