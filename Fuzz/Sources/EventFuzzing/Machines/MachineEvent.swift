/// The event kinds of the machine world (an event's kind byte modulo their count), with the
/// operands each reads. `to` is the side a frame goes to: even = the sender, odd = the receiver.
enum MachineEvent: Int, CaseIterable {
    /// `to, index`: the frame in flight at `index` arrives (and leaves the queue).
    case deliver
    /// `to, index`: a copy of a frame sent to that side before arrives again.
    case replay
    /// `to, index, mode, position (2), value`: a damaged copy arrives (bit flipped, cut,
    /// extended, a byte set).
    case damage
    /// `to, index`: the frame in flight is lost.
    case drop
    /// `to, type, mode, a, b, bytes...`: the other machine, turned malicious, seals a frame
    /// with the session's real keys and a plaintext of its choosing, and it arrives.
    case forge
    /// `to, type, sequence, length, body...`: a frame built by hand with the real transfer ID.
    case shaped
    /// `to, length (2), fill, bytes...`: arbitrary bytes.
    case raw
    /// `event, a, b, c, text...`: the sending person or app (typed code, reject, cancel,
    /// password, failed gate, keychain failure, tick, transport lost).
    case senderLocal
    /// `event, status`: the receiving person or app (accept, reject, cancel, store failure,
    /// failed gate, import result, tick, transport lost).
    case receiverLocal
    /// `mode, a, b`: the clock moves forwards, backwards, to a deadline, or is not finite.
    case clock
    /// `operation, a`: a second device scans the QR, reads a frame, acts.
    case secondDevice
    /// `index, rewrite`: a frame of another transfer (its transfer ID optionally rewritten).
    case foreign
    /// `operation, a, b, bytes...`: registry operations (prune, admit, status, rescan, restart,
    /// release, files with fuzzed contents, failing storage).
    case registry
    /// `operation, a, b, c, bytes...`: scans of crafted QR payloads, decoding, configurations.
    case scanProbe
    /// `what, a`: descriptions, dumps, transport keys; searched for secrets.
    case render

    /// The usual operand count of each kind, for the mutator's new events.
    static let operandCounts: [Int] = allCases.map { kind in
        switch kind {
        case .deliver, .replay, .drop, .receiverLocal, .secondDevice, .foreign, .render: 2
        case .clock: 3
        case .senderLocal, .registry: 4
        case .damage, .scanProbe: 6
        case .forge, .shaped, .raw: 8
        }
    }
}
