import AccountHandoff
import AccountHandoffTransport
import Foundation

/// Why the receiver's connect to the sender failed, as the transport said it: the session only
/// sees `senderUnreachable` or `expired`, while the person is told which (Spec 11.8).
final class ConnectFailure: @unchecked Sendable {
    // Safety of @unchecked Sendable: `error` is only touched under `lock`.
    private let lock = NSLock()
    private var error: TransportError?

    /// Records the transport's failure.
    func record(_ error: TransportError) { lock.withLock { self.error = error } }

    /// The recorded failure, if the connect failed.
    var recorded: TransportError? { lock.withLock { error } }
}

/// The receiver's last sentences where the library's outcome sentence cannot know enough: who
/// took the transfer, what the code's address means, whether the sender has ended.
enum ReceiverEndingWords {
    /// How to make a code that another computer can use.
    static let restartSender = sentenceCatalog.sentence("ending.restartSender", in: .cli)

    /// A code that expired beyond the clock tolerance: refused before any connection.
    static func expiredLongAgo(seconds: Int) -> String {
        sentenceCatalog.sentence("ending.expiredLongAgo", .text(Durations.text(seconds)), in: .cli)
    }

    /// The transfer line's note on the code's time left (or past, within the clock tolerance).
    static func timeLeft(seconds: Int, tolerance: Int) -> String {
        seconds >= 0
            ? sentenceCatalog.sentence("time.expiresIn", .text(Durations.text(seconds)), in: .cli)
            : sentenceCatalog.sentence("ending.expiredWithinTolerance", .text(Durations.text(seconds)), .number(tolerance), in: .cli)
    }

    /// The sending device now shows a new code (the scanned one expired unused, Spec 11.8).
    static let renewed = sentenceCatalog.sentence("ending.renewed", in: .cli)

    /// The code expired after this device had joined: the sender ended the transfer too.
    static let expiredDuringTransfer = sentenceCatalog.sentence("ending.expiredDuringTransfer", in: .cli)

    /// This device was turned away because another had joined first (its hello came second,
    /// so no code was revealed to it).
    static let transferTaken = sentenceCatalog.sentence("ending.transferTaken", in: .cli)

    /// Why nothing answered at the code's direct address, when the address itself says more
    /// than "nothing answered" (Spec 11.8: the receiver tells its person why).
    static func unreachable(_ rendezvous: TCPRendezvous, failure: TransportError?) -> String? {
        guard rendezvous.relay == nil, let direct = rendezvous.direct else { return nil }
        if case .directAddressRefused(let address, let refusal)? = failure {
            let why = switch refusal {
            case .unspecified: sentenceCatalog.sentence("ending.refused.unspecified", in: .cli)
            case .broadcast: sentenceCatalog.sentence("ending.refused.broadcast", in: .cli)
            case .multicast: sentenceCatalog.sentence("ending.refused.multicast", in: .cli)
            case .publicAddress: sentenceCatalog.sentence("ending.refused.public", in: .cli)
            }
            return sentenceCatalog.sentence("ending.refusedAddress", .text("\(address)"), .number(direct.port), .text(why), .text(restartSender), in: .cli)
        }
        // Nothing answered at a loopback address: most likely the code was carried to another computer.
        guard direct.address.isLoopback, let failure, [.connectionRefused, .timedOut, .networkUnreachable].contains(failure) else { return nil }
        return sentenceCatalog.sentence("ending.loopbackElsewhere", .text("\(direct)"), .text("\(direct.address)"), .text(restartSender), in: .cli)
    }
}
