import AccountHandoff
import AccountHandoffImport
import Foundation

// The app-side names the documentation's examples use (its keychain, its screens), declared
// just enough for the examples to type-check. Nothing here runs.

/// The app's keychain, as the examples read a password from it.
protocol ExampleKeychain: Sendable {
    func password(for account: AccountMetadata) throws -> SecretBytes
}

/// The app's transfer screen, as the examples drive it.
@MainActor protocol ExampleTransferUI: AnyObject {
    func showQR(_ text: String, expires: Date)
    func askForTheCodeOnTheOtherScreen()
    func show(_ code: ShortCode)
    func show(_ sentence: String)
    func review(_ account: AccountMetadata, _ conflict: ImportConflict?, _ senderGate: GateDeclaration)
}

/// The app's timer, as the sans-IO examples schedule it.
func scheduleTimer(at deadline: Date?) {}

/// A view with an accessibility label.
final class ExampleLabel {
    var accessibilityLabel: String?
}
