/// Sender state `awaitingReceipt` (Spec 6.1): the credential is sent and cannot be taken back.
struct SenderAwaitingReceipt {
    /// How many distinct second devices are remembered, so a repeated hello is answered once.
    static let rememberedSecondHellos = 8

    let established: SenderEstablished
    /// Hellos of second devices already answered with an abort.
    private(set) var answeredHellos: [[UInt8]] = []

    init(previous: SenderAwaitingCredential) {
        established = previous.established
    }

    /// Whether `hello` was already answered.
    func hasAnswered(_ hello: [UInt8]) -> Bool { answeredHellos.contains(hello) }

    /// Remembers an answered hello (the oldest is forgotten beyond the limit).
    mutating func noteAnswered(_ hello: [UInt8]) {
        answeredHellos.append(hello)
        if answeredHellos.count > Self.rememberedSecondHellos { answeredHellos.removeFirst() }
    }
}
