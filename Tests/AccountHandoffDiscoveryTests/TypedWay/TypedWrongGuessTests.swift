#if os(Linux)
import AccountHandoff
import AvahiHosts
import Foundation
import Testing
import TestProcesses

/// Wrong codes on the typed way over a real network (Spec 6.8, 8.8, 11.10), with the real
/// `handoff` binaries in `ip netns` hosts, each with its own Avahi daemon: one guess per code
/// at both ends, the exact sentences on both devices, and the typed way withdrawn after three
/// wrong guesses while the QR still works. Slow: in the slow slice.
@Suite(.startsProcesses, .enabled(if: AvahiHosts.unavailableReason == nil, Comment(rawValue: AvahiHosts.unavailableReason ?? "")), .timeLimit(.minutes(10)),
       .serialized)
struct TypedWrongGuessTests {
    static let mismatch = "The transfer failed. " + HandoffError.typedCodeMismatch.message(for: .receiver) + " Nothing was imported."
    static let withdrawn = "Three devices tried wrong codes; typing a code is turned off for this transfer: scan the QR code, or start again."

    @Test(.slowSlice)
    func aWrongCodeEndsTheReceiverAndRetiresTheSendersCode() async throws {
        try await withAvahiHosts(2) { hosts in
            let lab = try TypedLab(hosts)
            let sender = try lab.sender(in: 1)
            let code = try #require(await sender.typedCode(), "no typed code: \(sender.lines)")
            let guesser = try lab.receiver(in: 2)
            guesser.send(try TypedLab.wrongGuess(for: code))
            #expect(await guesser.finish() == TypedLab.failureStatus, "\(guesser.lines)")
            #expect(guesser.lines.last == Self.mismatch, "\(guesser.lines)")
            #expect(try await lab.storedAccounts(of: 2).isEmpty)

            // The sender says so and shows a new code at once; the old one is gone from the network.
            let newCode = try #require(await sender.codeAfterRetirement(1), "\(sender.lines)")
            #expect(newCode != code)
            if newCode.prefix(3) != code.prefix(3) {
                let late = try lab.receiver(in: 2)
                late.send(code)
                #expect(await late.finish() == TypedLab.failureStatus)
                #expect(late.lines.last == TypedSearchSentences.notFound(String(code.prefix(3))), "\(late.lines)")
            }

            // The new code moves the account.
            let receiver = try lab.receiver(in: 2)
            receiver.send(newCode)
            try await lab.expectAccepted(by: receiver, in: 2, from: sender)
        }
    }

    @Test(.slowSlice)
    func threeWrongGuessesWithdrawTheTypedWayAndTheQRStillWorks() async throws {
        try await withAvahiHosts(2) { hosts in
            let lab = try TypedLab(hosts)
            let sender = try lab.sender(in: 1)
            var code = try #require(await sender.typedCode(), "no typed code: \(sender.lines)")
            for guess in 1...3 {
                let guesser = try lab.receiver(in: 2)
                guesser.send(try TypedLab.wrongGuess(for: code))
                #expect(await guesser.finish() == TypedLab.failureStatus, "\(guesser.lines)")
                #expect(guesser.lines.last == Self.mismatch, "guess \(guess): \(guesser.lines)")
                if guess < 3 { code = try #require(await sender.codeAfterRetirement(guess), "\(sender.lines)") }
            }
            #expect(await sender.line(containing: Self.withdrawn) == Self.withdrawn, "\(sender.lines)")
            #expect(sender.lines.filter { $0.hasPrefix(HostProcess.retiredPrefix) }.count == 2)
            // Nothing is announced any more: the last nameplate is not found.
            let late = try lab.receiver(in: 2)
            late.send(try TypedLab.wrongGuess(for: code, changing: 7))
            #expect(await late.finish() == TypedLab.failureStatus)
            #expect(late.lines.last == TypedSearchSentences.notFound(String(code.prefix(3))), "\(late.lines)")
            #expect(try await lab.storedAccounts(of: 2).isEmpty)

            // The QR still works.
            let transferLine = try #require(await sender.line(containing: "Transfer code: AH:"))
            let receiver = try lab.receiver(in: 2)
            receiver.send(String(transferLine.dropFirst("Transfer code: ".count)))
            let shown = try #require(await receiver.line(containing: "Code for the sending device: "), "\(receiver.lines)\n\(sender.lines)")
            let sixDigits = String(shown.dropFirst("Code for the sending device: ".count).prefix(7)).filter(\.isNumber)
            sender.send(sixDigits)
            try await lab.expectAccepted(by: receiver, in: 2, from: sender)
        }
    }
}

/// The receiving device's sentences of a typed code's search (``AccountHandoffDiscovery/TypedSearchError``).
enum TypedSearchSentences {
    static func notFound(_ nameplate: String) -> String {
        "No device on this network shows a code starting with \(nameplate), so nothing was sent; check that the sending device still shows the code and is on the same network, then type the code again, or scan the QR code."
    }

    static func ambiguous(_ nameplate: String, devices: Int) -> String {
        "More than one device on this network shows a code starting with \(nameplate) (\(devices) of them), so this device did not connect and nothing was sent; ask for a new code on the sending device, or scan its QR code."
    }
}
#endif
