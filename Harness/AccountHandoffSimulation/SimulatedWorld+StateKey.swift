import AccountHandoff
import Foundation

/// Gives every distinct frame a small number, so world states can be compared cheaply.
///
/// Test support only.
public final class FrameInterner {
    private var ids: [[UInt8]: Int] = [:]

    /// An empty table.
    public init() {}

    /// The number of `bytes`, assigned on first sight.
    public func id(_ bytes: [UInt8]) -> Int {
        if let id = ids[bytes] { return id }
        let id = ids.count
        ids[bytes] = id
        return id
    }
}

/// Everything that decides a world's future and the properties checked on it: both
/// sessions' phases, outcomes and codes, the frames each produced and accepted (which fix
/// their transcripts and sequence numbers), the frames in flight, the clock, and the people's
/// and apps' history. Two worlds with equal keys behave identically from then on.
///
/// Test support only.
public struct WorldStateKey: Hashable {
    let numbers: [Int]
    let names: [String]
}

extension SimulatedWorld {
    /// This world's state key.
    public func stateKey(_ interner: FrameInterner) -> WorldStateKey {
        var numbers: [Int] = [Int(now.timeIntervalSince(scenario.start))]
        for direction in [Direction.toReceiver, .toSender] {
            numbers.append(-1)
            for frame in inFlight[direction] ?? [] {
                numbers += [interner.id(frame.bytes), frame.origin?.rawValue ?? 9]
            }
        }
        for role in Role.allCases {
            numbers.append(-2)
            numbers += (produced[role] ?? []).map(interner.id)
            numbers.append(-3)
            numbers += (accepted[role] ?? []).map(interner.id)
            numbers.append(finishedCount[role] ?? 0)
        }
        let flags = [senderPersonConfirmed, senderConfirmedMatchingCodes, receiverPersonConfirmed, receiverDelivered,
                     receiverImportCommitted, pendingImport != nil, attackerLearnedAccount, attackerLearnedCredential,
                     credentialLeftSender, senderWarnedOfSecondDevice, attacker != nil, attackerCredential != nil]
        numbers += flags.map { $0 ? 1 : 0 }
        numbers += [senderPeer?.rawValue ?? 9, refusedByRegistry]
        let names = Role.allCases.map { role in
            machineState(role).map { "\($0.phase)|\(outcomeIdentifier(role) ?? "-")|\($0.code.map { String($0.value) } ?? "-")" } ?? "-"
        }
        return WorldStateKey(numbers: numbers, names: names)
    }
}
