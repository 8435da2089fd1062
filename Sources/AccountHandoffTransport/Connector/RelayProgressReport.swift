import Foundation

/// What a receiver says about its relay attempts (Spec 11.7, 11.8): where it connects, once;
/// each new reason an attempt failed, once, not once a second; and that the relay is reached
/// again after it could not be. Its calls come from the connecting task and the event loop.
final class RelayProgressReport: @unchecked Sendable {
    // Safety of @unchecked Sendable: `announced` and `lastFailure` are only touched under `lock`;
    // the rest is immutable.
    private let relay: TCPRendezvous.Relay
    private let progress: @Sendable (ConnectionProgress) -> Void
    private let lock = NSLock()
    private var announced = false
    private var lastFailure: TransportError?

    init(relay: TCPRendezvous.Relay, progress: @escaping @Sendable (ConnectionProgress) -> Void) {
        self.relay = relay
        self.progress = progress
    }

    /// An attempt starts at `address`: said for the first one only.
    func connecting(at address: IPv4Address) {
        let first = lock.withLock { () -> Bool in
            defer { announced = true }
            return !announced
        }
        if first { progress(.connectingThroughRelay(relay, address: address)) }
    }

    /// An attempt failed with `error`: said when the reason differs from the last one said.
    func failed(_ error: TransportError) {
        let new = lock.withLock { () -> Bool in
            guard error != lastFailure else { return false }
            lastFailure = error
            return true
        }
        if new { progress(.relayRetrying(relay, error)) }
    }

    /// An attempt's connection to the relay at `address` exists: said when the last reason
    /// said was that the relay could not be reached.
    func reached(_ address: IPv4Address) {
        let again = lock.withLock { () -> Bool in
            guard let lastFailure, Self.meansUnreachable(lastFailure) else { return false }
            self.lastFailure = nil
            return true
        }
        if again { progress(.connectingThroughRelay(relay, address: address)) }
    }

    private static func meansUnreachable(_ error: TransportError) -> Bool {
        switch error {
        case .connectionRefused, .networkUnreachable, .relayHostNotFound, .system: true
        case .timedOut, .relayClosed, .closedByPeer, .notAHandoffSender, .codeRenewed, .garbledByRelay, .oversizedFrame, .emptyFrame,
             .addressUnavailable, .unsupportedRendezvous, .relayNotPaired, .directAddressRefused, .closedLocally, .notJoinedInTime,
             .evicted, .unspecifiedAddress:
            false
        }
    }
}
