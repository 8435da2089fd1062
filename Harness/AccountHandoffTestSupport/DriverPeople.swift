import AccountHandoff
import Foundation

/// What the receiving device's screen shows, for a test's sending person to read.
package actor ReceivingScreen {
    private var code: ShortCode?
    private var waiters: [CheckedContinuation<ShortCode?, Never>] = []
    private var closed = false

    package init() {}

    /// The receiver showed `code`.
    package func show(_ code: ShortCode) {
        self.code = code
        waiters.forEach { $0.resume(returning: code) }
        waiters.removeAll()
    }

    /// The receiver's session ended: nothing more will be shown.
    package func close() {
        closed = true
        waiters.forEach { $0.resume(returning: code) }
        waiters.removeAll()
    }

    /// The code on the screen, waiting until there is one; `nil` when the session ended first.
    package func read() async -> ShortCode? {
        if code != nil || closed { return code }
        return await withCheckedContinuation { waiters.append($0) }
    }
}

/// The two people of a driver test. Test support only.
package enum People {
    /// Plays both people: the sending person types the code the receiving screen shows, the
    /// receiving person accepts the offered account once `beforeAccepting` returns. Returns
    /// when both sessions' updates end.
    package static func confirmBoth<Importer: AccountImporter>(_ sender: HandoffSenderSession, _ receiver: HandoffReceiverSession<Importer>,
                                                               beforeAccepting: @escaping @Sendable () async -> Void = {}) -> Task<Void, Never> {
        let screen = ReceivingScreen()
        return Task {
            let sendingPerson = Task {
                for await update in sender.updates {
                    if case .receiverJoined = update, let code = await screen.read() {
                        _ = try? await sender.enterCode(code.grouped)
                    }
                }
            }
            for await update in receiver.updates {
                switch update {
                case .codeReady(let code): await screen.show(code)
                case .accountOffered:
                    await beforeAccepting()
                    try? await receiver.accept()
                case .finished: await screen.close()
                default: break
                }
            }
            await screen.close()
            await sendingPerson.value
        }
    }
}
