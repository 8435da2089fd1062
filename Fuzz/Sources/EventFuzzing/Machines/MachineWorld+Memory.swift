import AccountHandoff
import AccountHandoffSimulation
import Foundation

extension MachineWorld {
    /// Plays the event the operands name (``MachineEvent/withoutGuardedMemory``: any kind but
    /// this one) with every step of either machine finding no guarded memory.
    func withoutGuardedMemory(_ operands: inout Operands) throws(InvariantViolation) {
        let kinds = MachineEvent.allCases.count - 1
        let inner = EventScript.Event(UInt8(Int(operands.byte()) % kinds), operands.rest())
        note("without guarded memory:")
        refusingGuardedMemory = true
        defer { refusingGuardedMemory = false }
        try play(inner)
    }

    /// Runs a machine's step, with its guarded memory refused inside
    /// ``withoutGuardedMemory(_:)`` (the package hook `GuardedAllocator.refusing`, which the
    /// fuzz build's heap allocator honours too). Only the machines' steps are refused: the
    /// world's own secrets (a password it hands in, a forged plaintext) still get memory.
    func step<Result>(_ body: () throws(HandoffError) -> Result) throws(HandoffError) -> Result {
        guard refusingGuardedMemory else { return try body() }
        return try GuardedAllocator.refusing(body)
    }

    /// A step that ended `side` for want of guarded memory ran without any, after the expiry
    /// rule, and ended as Spec 6.0 step 4 says: a side holding the session's keys that has not
    /// sent the credential seals `abort(7)` and ends `failed.secureMemoryUnavailable`; the
    /// sender awaiting a hello ends so without a frame, and awaiting the receipt ends
    /// `deliveredUnconfirmed.failed.secureMemoryUnavailable` without a frame.
    func checkMemoryEnding(_ side: Side, before: Observation, wasFinished: Bool, expiresFirst: Bool,
                           sends: Int) throws(InvariantViolation) {
        guard !wasFinished, endedForWantOfMemory(side) else { return }
        guard refusingGuardedMemory else { throw violation("the \(side) ended for want of guarded memory it was not refused") }
        guard !expiresFirst else { throw violation("the \(side) ended for want of memory after its deadline, not expired") }
        let expected: (outcome: String, sends: Int)
        switch before.phase {
        case .sender(.awaitingHello): expected = ("failed.secureMemoryUnavailable", 0)
        case .sender(.awaitingReceipt): expected = ("deliveredUnconfirmed.failed.secureMemoryUnavailable", 0)
        case .sender(.awaitingCodeConfirmation), .sender(.awaitingAccept), .sender(.awaitingCredential),
             .receiver(.awaitingReveal), .receiver(.awaitingOffer), .receiver(.reviewingOffer), .receiver(.awaitingCredentialFrame):
            expected = ("failed.secureMemoryUnavailable", 1)
        default:
            throw violation("the \(side) ended for want of guarded memory in \(before.phase), which needs none")
        }
        let outcome = side == .sender ? sender.outcome?.identifier : receiver.outcome?.identifier
        guard outcome?.hasPrefix(expected.outcome) == true, sends == expected.sends else {
            throw violation("the \(side) ended for want of memory in \(before.phase) as \(outcome ?? "-") with \(sends) frames")
        }
        note("  ended for want of guarded memory")
    }
}
