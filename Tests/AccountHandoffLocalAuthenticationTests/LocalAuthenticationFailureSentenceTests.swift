import AccountHandoff
import Foundation
import Testing

/// Every failure is told as whole sentences that say what to do next (Spec 7.1).
@Suite struct LocalAuthenticationFailureSentenceTests {
    static let stopped = "The transfer stopped before anything secret was sent or stored."

    @Test func notRecognized() {
        let failure = LocalAuthenticationFailure.notRecognized
        #expect(failure.errorDescription == "This device did not recognize the password, passcode or biometric match. "
            + "\(Self.stopped) Start a new transfer to try again.")
        #expect(failure.description == failure.errorDescription)
    }

    @Test func lockedOut() {
        #expect(LocalAuthenticationFailure.lockedOut.errorDescription
            == "This device refuses to authenticate you now, after too many failed attempts or because your account is locked. "
            + "\(Self.stopped) Unlock the device or wait, then start a new transfer.")
    }

    @Test func unavailableCarriesTheAdaptersDetailAsASentence() {
        let tail = "\(Self.stopped) Set up a password, passcode or biometrics (or ask the device's administrator), then start a new transfer."
        #expect(LocalAuthenticationFailure.unavailable(detail: "No passcode or password is set on this device.").errorDescription
            == "This device cannot authenticate its user. No passcode or password is set on this device. \(tail)")
        #expect(LocalAuthenticationFailure.unavailable(detail: "No passcode is set").errorDescription
            == "This device cannot authenticate its user. No passcode is set. \(tail)")
    }

    /// A `LocalizedError` is what `localizedDescription` shows.
    @Test func localizedDescriptionIsTheSentence() {
        let error: any Error = LocalAuthenticationFailure.notRecognized
        #expect(error.localizedDescription == LocalAuthenticationFailure.notRecognized.description)
    }
}
