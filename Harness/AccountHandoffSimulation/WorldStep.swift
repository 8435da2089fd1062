import AccountHandoff

/// Which way a frame travels.
public enum Direction: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// From the sender towards the receiver (and anyone listening).
    case toReceiver
    /// From a receiver (honest or not) towards the sender.
    case toSender

    /// `>R` or `>S`.
    public var description: String { self == .toReceiver ? ">R" : ">S" }
}

/// One of the two honest devices.
public enum Device: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The device that shows the QR and sends the account.
    case sender
    /// The device that scans the QR and receives the account.
    case receiver

    /// `sender` or `receiver`.
    public var description: String { self == .sender ? "sender" : "receiver" }
}

/// What a person does on their own device.
public enum PersonChoice: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Confirms the short code (and, on the receiver, the offered account). A careful person
    /// who sees two different codes rejects instead, and one whose other device shows no code
    /// yet waits (the step does nothing).
    case confirm
    /// Rejects the code or the account.
    case reject
    /// Cancels the transfer.
    case cancel
    /// Fails local authentication at the device's gate (Spec 8.7): the sender's when the
    /// password is asked for, the receiver's when the person accepts.
    case failAuthentication
    /// The device's app finds its store unusable (the sender cannot read the password; the
    /// receiver cannot store the account).
    case storeUnavailable

    /// The choice's name.
    public var description: String {
        switch self {
        case .confirm: "confirm"
        case .reject: "reject"
        case .cancel: "cancel"
        case .failAuthentication: "failAuthentication"
        case .storeUnavailable: "storeUnavailable"
        }
    }
}

/// How an attacker damages a frame in flight.
public enum FrameDamage: Hashable, Sendable, CustomStringConvertible {
    /// Inverts one bit (taken modulo the frame's bit count).
    case flipBit(Int)
    /// Keeps only a prefix of this length.
    case truncate(Int)
    /// Appends one byte.
    case append(UInt8)
    /// Overwrites one byte (position modulo the length).
    case overwrite(Int, UInt8)

    /// Applies the damage.
    public func apply(to bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .flipBit(let bit): return FrameBytes.flippingBit(bytes, bit: bit)
        case .truncate(let length): return FrameBytes.truncated(bytes, to: length)
        case .append(let byte): return bytes + [byte]
        case .overwrite(let position, let byte):
            guard !bytes.isEmpty else { return bytes }
            var copy = bytes
            copy[position % copy.count] = byte
            return copy
        }
    }

    /// A short name for traces.
    public var description: String {
        switch self {
        case .flipBit(let bit): "flip\(bit)"
        case .truncate(let length): "trunc\(length)"
        case .append(let byte): "append\(byte)"
        case .overwrite(let position, let byte): "set\(position)=\(byte)"
        }
    }
}

/// One thing that can happen in the simulated world: a network event, a person's choice,
/// an app's reaction, the clock, or an attacker's move.
///
/// Test support only: the vocabulary shared by fuzz target 5 and the schedule explorer.
public enum WorldStep: Hashable, Sendable, CustomStringConvertible {
    /// Removes in-flight frame `index` and hands it to its recipient.
    case deliver(Direction, Int)
    /// Hands a copy of in-flight frame `index` to its recipient and leaves it in flight, so it can be replayed.
    case deliverCopy(Direction, Int)
    /// Loses in-flight frame `index`.
    case drop(Direction, Int)
    /// Moves in-flight frame `index` behind all others.
    case reorder(Direction, Int)
    /// Damages in-flight frame `index` in place.
    case damage(Direction, Int, FrameDamage)
    /// Puts arbitrary bytes in flight.
    case inject(Direction, [UInt8])
    /// Puts frame `index` of a recorded session from other seeds in flight, with its transfer
    /// ID replaced by this session's when `retargeted`.
    case injectForeign(Direction, Int, retargeted: Bool)
    /// A shoulder-surfer (or any second device that saw the QR) scans it with its own key and
    /// sends its hello.
    case attackerScans
    /// The attacker reads (a copy of) in-flight frame `index` heading to the receivers (the
    /// sender's frames, and its replies to a second device, travel the same way).
    case attackerObserves(Int)
    /// The attacker accepts the offer it decrypted, hoping for the credential.
    case attackerAccepts
    /// The attacker's app reports an import of the credential it decrypted (sends a receipt).
    case attackerSendsReceipt
    /// A person acts on a device.
    case person(Device, PersonChoice)
    /// The sender's app re-authenticates its user and provides the password.
    case provideCredential
    /// The receiver's app reports the import result (storing first when `.imported`).
    case importFinished(ReceiptStatus)
    /// The shared clock moves forward.
    case advanceClock(seconds: UInt32)
    /// The app on a device feeds a tick.
    case tick(Device)
    /// The transport of a device reports loss.
    case transportLost(Device)
    /// The receiver's person scans the same QR again.
    case rescan
    /// The sender's driver closes the connection once its session ended (Spec 6.7): every
    /// frame it sent reaches the receiver in order, then the receiver's transport reports the
    /// loss. A receiver whose sender's code ran out must say `expired`, never `transportLost`.
    case senderCloses

    /// A compact name for traces.
    public var description: String {
        switch self {
        case .deliver(let d, let i): "deliver\(d)#\(i)"
        case .deliverCopy(let d, let i): "replay\(d)#\(i)"
        case .drop(let d, let i): "drop\(d)#\(i)"
        case .reorder(let d, let i): "reorder\(d)#\(i)"
        case .damage(let d, let i, let damage): "damage\(d)#\(i):\(damage)"
        case .inject(let d, let bytes): "inject\(d)(\(bytes.count)B)"
        case .injectForeign(let d, let i, let retargeted): "foreign\(d)#\(i)\(retargeted ? "*" : "")"
        case .attackerScans: "attackerScans"
        case .attackerObserves(let i): "attackerObserves#\(i)"
        case .attackerAccepts: "attackerAccepts"
        case .attackerSendsReceipt: "attackerReceipt"
        case .person(let device, let choice): "\(device).\(choice)"
        case .provideCredential: "provideCredential"
        case .importFinished(let status): "import.\(status)"
        case .advanceClock(let seconds): "clock+\(seconds)"
        case .tick(let device): "\(device).tick"
        case .transportLost(let device): "\(device).transportLost"
        case .rescan: "rescan"
        case .senderCloses: "senderCloses"
        }
    }
}
