import Foundation
import Testing

/// What the CLI asks, as the tests wait for it.
enum Asked {
    /// Ends the code question on both sides.
    static let codeQuestion = "[code/yes/no/cancel] "
    /// Ends the sender's question before the password leaves.
    static let passwordQuestion = "to the receiving device now? [yes/no/cancel] "
}

/// A `handoff send` and a `handoff receive` on 127.0.0.1, started the way a person starts
/// them: the receiver gets the transfer code on its standard input.
struct TransferPair {
    let sender: HandoffProcess
    let receiver: HandoffProcess
    let code: String

    /// Starts the sender, reads its code, starts the receiver and types the code into it.
    static func start(_ scratch: Scratch, sender senderExtra: [String] = [], receiver receiverExtra: [String] = [],
                      store: URL? = nil, validated: Bool = false) async throws -> TransferPair {
        let sender = try HandoffProcess(scratch.sendArguments(senderExtra))
        guard let code = await sender.transferCode() else {
            let failed = await sender.finish(timeout: .seconds(1))
            throw PairFailure(message: "the sender printed no transfer code: \(failed.all)")
        }
        let receiver = try HandoffProcess(scratch.receiveArguments(receiverExtra, store: store, validated: validated))
        receiver.write(code + "\n")
        return TransferPair(sender: sender, receiver: receiver, code: code)
    }

    /// Each person types the code the other device shows; then the sender approves sending
    /// the password.
    func confirmByTypingCodes() async throws {
        try await confirmCodes()
        try #require(await sender.waitForOutput(containing: Asked.passwordQuestion) != nil, "the sender never asked for the password")
        sender.write("yes\n")
    }

    /// Each person types the code the other device shows (the sender first, as it must
    /// confirm before the offer travels).
    func confirmCodes() async throws {
        // The receiver first: when it fails to join, the sender would wait until its expiry.
        let shownByReceiver = try #require(await receiver.shortCode(), "the receiver showed no code")
        let shownBySender = try #require(await sender.shortCode(), "the sender showed no code")
        try #require(await sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        sender.write(shownByReceiver + "\n")
        try #require(await receiver.waitForOutput(containing: Asked.codeQuestion) != nil, "the receiver was never asked")
        receiver.write(shownBySender + "\n")
    }

    /// After the sender confirmed: the receiver types the sender's code, the sender approves.
    func receiverConfirmsAndSenderApproves() async throws {
        let shownBySender = try #require(await sender.shortCode(), "the sender showed no code")
        try #require(await receiver.waitForOutput(containing: Asked.codeQuestion) != nil, "the receiver was never asked")
        receiver.write(shownBySender + "\n")
        try #require(await sender.waitForOutput(containing: Asked.passwordQuestion) != nil, "the sender never asked for the password")
        sender.write("yes\n")
    }

    /// Both results, the receiver's first.
    func finish(timeout: Duration = .seconds(20)) async -> (sent: HandoffProcess.Result, received: HandoffProcess.Result) {
        let received = await receiver.finish(timeout: timeout)
        let sent = await sender.finish(timeout: timeout)
        return (sent, received)
    }

    struct PairFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
