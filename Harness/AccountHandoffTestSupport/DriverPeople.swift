import AccountHandoff
import Foundation

/// An importer for driver tests: prepares every offer, reports `status` for every import, and
/// records what it saw. Test support only.
package struct RecordingImporter: AccountImporter {
    package let status: ReceiptStatus
    package let log = ImportLog()

    package init(status: ReceiptStatus = .imported) { self.status = status }

    package func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> RecordedImport {
        log.note("prepared \(offer.emailAddress)")
        return RecordedImport(status: status, log: log)
    }
}

/// A preparation of ``RecordingImporter``.
package struct RecordedImport: AccountImportPreparation {
    let status: ReceiptStatus
    let log: ImportLog

    package func checkReady() throws(ImportNotReady) {}

    package func importAccount(_ account: ImportedAccount) async -> ImportReport {
        log.note("imported \(account.metadata.emailAddress) with \(account.credential.revealedBytes().count) bytes")
        return ImportReport(status: status, message: "Recorded import: \(status.identifier).")
    }

    package func abandon() { log.note("abandoned") }
}

/// What a ``RecordingImporter`` did, in order.
package final class ImportLog: @unchecked Sendable {
    // Safety of @unchecked Sendable: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    package init() {}

    func note(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// Everything noted so far.
    package var notes: [String] { lock.withLock { entries } }
}

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
