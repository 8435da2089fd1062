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
    static let restartSender = "restart 'handoff send' on the sending computer with --address ITS-NETWORK-ADDRESS --lan "
        + "(an address this computer reaches it at) or with --relay HOST:PORT, and use its new code"

    /// A code that expired beyond the clock tolerance: refused before any connection.
    static func expiredLongAgo(seconds: Int) -> String {
        "This code expired \(Durations.text(seconds)) ago, so this device did not try to connect; ask the sending person to start a new transfer and use its new code. Nothing was imported."
    }

    /// The transfer line's note on the code's time left (or past, within the clock tolerance).
    static func timeLeft(seconds: Int, tolerance: Int) -> String {
        seconds >= 0
            ? "the code expires in \(Durations.text(seconds))"
            : "the code expired \(Durations.text(seconds)) ago by this device's clock; trying anyway, as clocks may differ by up to \(tolerance) s"
    }

    /// The sending device now shows a new code (the scanned one expired unused, Spec 11.8).
    static let renewed = "The code expired before it was used, and the sending device now shows a new code; scan or paste that one. Nothing was imported."

    /// The code expired after this device had joined: the sender ended the transfer too.
    static let expiredDuringTransfer = "The code expired during the transfer, so the sending device ended it too; ask its person to start a new transfer, then use the new code. Nothing was imported."

    /// This device was turned away because another had joined first (its hello came second,
    /// so no code was revealed to it).
    static let transferTaken = "Another device had already joined this transfer with the same code, so this device was turned away and got nothing; if the transfer was meant for this device, ask the sending person to start a new one and keep its code out of sight. Nothing was imported."

    /// Why nothing answered at the code's direct address, when the address itself says more
    /// than "nothing answered" (Spec 11.8: the receiver tells its person why).
    static func unreachable(_ rendezvous: TCPRendezvous, failure: TransportError?) -> String? {
        guard rendezvous.relay == nil, let direct = rendezvous.direct else { return nil }
        if case .directAddressRefused(let address, let refusal)? = failure {
            let why = switch refusal {
            case .unspecified: "0.0.0.0 names no machine"
            case .broadcast: "it is the broadcast address, which names no one machine"
            case .multicast: "it is a multicast address, which names no one machine"
            case .publicAddress: "it is neither this computer nor a local network, and a code shown to a camera could send this device anywhere"
            }
            return "This device will not connect to \(address):\(direct.port), the address in this code: \(why). To transfer, \(restartSender). Nothing was imported."
        }
        // Nothing answered at a loopback address: most likely the code was carried to another computer.
        guard direct.address.isLoopback, let failure, [.connectionRefused, .timedOut, .networkUnreachable].contains(failure) else { return nil }
        return "Nothing answered at \(direct), the address in this code: \(direct.address) is the sending computer itself, so the code works only there. If you are on another computer, \(restartSender); on the same computer, check that 'handoff send' still shows this code. Nothing was imported."
    }
}
