import AccountHandoff

/// Why discovery could not advertise or browse. The same cases on every platform (Avahi on
/// Linux, mDNSResponder on Apple platforms); each sentence names the platform's daemon and
/// what to do. Nothing secret is ever part of discovery: the nameplate is public.
public enum DiscoveryError: Error, Hashable, Sendable {
    /// The DNS-SD daemon is not running (on Linux: the Avahi daemon, or the system D-Bus
    /// through which it is reached; libavahi-client cannot tell the two apart).
    case daemonNotRunning
    /// The DNS-SD daemon stopped (or restarted) while this device advertised or browsed:
    /// what it advertised is gone, and what it browsed is incomplete.
    case daemonStopped
    /// The daemon refused the request: the message bus's policy (Linux) or the local-network
    /// permission (Apple platforms) does not allow this program to use it.
    case notPermitted
    /// The daemon serves too many programs or objects already.
    case daemonBusy
    /// Another failure: what was being done, and why.
    case failed(DiscoveryOperation, DiscoveryFailureReason)
}

extension DiscoveryError: TranslatedSentence {
    /// A whole sentence for people, with what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .daemonNotRunning:
            #if os(Linux)
            sentenceCatalog.sentence("discovery.daemonNotRunning.avahi", in: language)
            #else
            sentenceCatalog.sentence("discovery.daemonNotRunning.apple", in: language)
            #endif
        case .daemonStopped:
            #if os(Linux)
            sentenceCatalog.sentence("discovery.daemonStopped.avahi", in: language)
            #else
            sentenceCatalog.sentence("discovery.daemonStopped.apple", in: language)
            #endif
        case .notPermitted:
            #if os(Linux)
            sentenceCatalog.sentence("discovery.notPermitted.avahi", in: language)
            #else
            sentenceCatalog.sentence("discovery.notPermitted.apple", in: language)
            #endif
        case .daemonBusy:
            sentenceCatalog.sentence("discovery.daemonBusy", in: language)
        case .failed(let operation, .daemonSays(let words)):
            sentenceCatalog.sentence("discovery.failed", .text(operation.words(in: language)), .text(words), in: language)
        case .failed(let operation, .daemonCode(let code)):
            sentenceCatalog.sentence("discovery.failed.code", .text(operation.words(in: language)), .number(code), in: language)
        case .failed(let operation, .outOfMemory):
            sentenceCatalog.sentence("discovery.failed.outOfMemory", .text(operation.words(in: language)), in: language)
        case .failed(let operation, .noDescriptorLeft):
            sentenceCatalog.sentence("discovery.failed.noDescriptorLeft", .text(operation.words(in: language)), in: language)
        }
    }
}
