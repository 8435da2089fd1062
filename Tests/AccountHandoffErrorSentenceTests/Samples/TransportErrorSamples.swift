import AccountHandoff
import AccountHandoffTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples of the errors of module `AccountHandoffTransport`.
enum TransportErrorSamples {
    static var all: [ErrorSample] {
        transportErrors.map { ErrorSample($0) } + rendezvousErrors.map { ErrorSample($0) }
            + [InterfaceAddressError.unavailable(errno: ENOMEM), InterfaceAddressError.unavailable(errno: EACCES)].map { ErrorSample($0) }
            + listeningErrors.map { ErrorSample($0) }
    }

    static let rendezvousErrors: [RendezvousTokenError] = [
        .empty, .unknownFlags(0x80), .addressWithoutDirect, .noRoute, .truncated, .zeroPort, .trailingBytes,
        .oddRelayHostLength, .relayHostGroupOutOfRange, .relayHostPadGroup, .misplacedRelayHostPad, .invalidRelayHost, .tooLong(40),
    ]

    static var transportErrors: [TransportError] {
        let refusals: [DirectAddressPolicy.Refusal] = [.unspecified, .broadcast, .multicast, .publicAddress]
        return [
            .closedByPeer, .timedOut, .connectionRefused, .oversizedFrame(70_000), .emptyFrame, .networkUnreachable,
            .relayClosed, .garbledByRelay, .relayNotPaired, .relayHostNotFound(try! RelayHost("relay.example.org")),
            .addressUnavailable(errno: EADDRINUSE), .addressUnavailable(errno: EADDRNOTAVAIL), .closedLocally,
            .notAHandoffSender, .codeRenewed, .notJoinedInTime, .evicted, .unspecifiedAddress,
            .system(operation: "epoll_wait", errno: EBADF), .system(operation: "accept4", errno: EMFILE),
        ]
            + rendezvousErrors.map(TransportError.unsupportedRendezvous)
            + refusals.map { TransportError.directAddressRefused(IPv4Address("203.0.113.9")!, $0) }
    }

    static let listeningErrors: [ListeningAddressError] = [
        .unspecified, .notOnThisMachine(IPv4Address("10.1.1.1")!, available: [.loopback, IPv4Address("192.168.1.20")!]),
        .networkAddressNotRequested(IPv4Address("192.168.1.20")!), .interfacesUnavailable(errno: ENOMEM),
    ]
}
