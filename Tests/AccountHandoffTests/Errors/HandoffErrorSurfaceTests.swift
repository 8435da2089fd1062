import Foundation
import Testing
import AccountHandoff

/// `HandoffError`'s public surface (Spec 7.2): static members build the kind they name, the
/// code and identifier are the Spec's, payloads read back, and matching works on `any Error`.
@Suite struct HandoffErrorSurfaceTests {
    /// One error of every kind; `malformed` with every field.
    static let everyKind: [HandoffError] = [
        .badMagic, .unsupportedVersion(9), .wrongIntent(7), .nonCanonicalEncoding, .rendezvousTooLong(40), .expired,
        .expiryTooFar, .oversizedFrame(70_000), .unknownMessageType(99), .unknownTransfer, .replayed, .outOfOrder,
        .unexpectedMessage(.offer, in: .sender(.awaitingHello)), .authenticationFailed, .lowOrderPublicKey,
        .commitmentMismatch, .keyDerivationFailed, .invalidEvent(.cancel, in: .receiver(.finished)), .invalidClock,
        .sessionFinished, .cancelledByPeer, .rejectedByPeer, .anotherDeviceJoined, .storeUnavailable, .peerStoreUnavailable,
        .notAuthenticated, .peerNotAuthenticated, .importChoiceRequired, .transportLost, .senderUnreachable,
        .transferIDInUse, .alreadyScanned, .transferConsumed, .invalidConfiguration, .secureMemoryUnavailable(.lockLimitReached),
        .registryUnavailable(.corrupt), .typedCodeCheckFailed, .typedCodeIsShortCode, .invalidPakeShare, .typedCodeAlreadyUsed, .typedCodeMismatch, .typedCodeUnconfirmed, .typedRunsBusy,
    ] + HandoffError.Field.allCases.map(HandoffError.malformed)

    /// An offer's port or security value that is out of range is named as such, never as
    /// "invisible or control characters" (those are text fields' faults).
    @Test func aBadPortOrSecurityIsNamedForWhatItIs() {
        #expect(HandoffError.malformed(.imapPort).message(for: .receiver) == "The account's mail server port is not valid (a port is a number from 1 to 65535, never 0); fix the account on the sending device, then ask the sending device for a new code.")
        #expect(HandoffError.malformed(.imapSecurity).message(for: .receiver) == "The account's connection security is not one this app knows (it knows TLS and STARTTLS); check the account on the sending device and update the app there, then ask the sending device for a new code.")
        #expect(HandoffError.malformed(.accountLinkID).message(for: .receiver) == "The account's identifier is not valid (it must be a UUID); fix the account on the sending device, then ask the sending device for a new code.")
    }

    @Test func staticMembersBuildTheKindTheyName() {
        #expect(HandoffError.expired.kind == .expired)
        #expect(HandoffError.malformed(.digits).kind == .malformed(.digits))
        #expect(HandoffError.invalidEvent(.cancel, in: .sender(.awaitingHello)).kind == .invalidEvent(.cancel, in: .sender(.awaitingHello)))
        #expect(HandoffError.malformed(.digits) != .malformed(.length))
        #expect(HandoffError.unsupportedVersion(9) != .unsupportedVersion(8))
        #expect(HandoffError.unsupportedVersion(9).code == HandoffError.unsupportedVersion(8).code)
        #expect(Set(Self.everyKind.map(\.kind)).count == Self.everyKind.count)
    }

    /// The identifiers are exactly those of the table in Spec 7.2, and each one starts with
    /// its code's name.
    @Test func identifiersAreTheSpecsTable() throws {
        let identifiers = Self.everyKind.map(\.identifier)
        #expect(Set(identifiers) == (try Self.specIdentifiers()))
        #expect(Set(Self.everyKind.map(\.code)).count == 44)
        for error in Self.everyKind {
            #expect(error.identifier == [error.code.description, error.field?.rawValue].compactMap(\.self).joined(separator: "."))
        }
        #expect(HandoffError.malformed(.commitment).identifier == "malformed.commitment")
        #expect(HandoffError.secureMemoryUnavailable(.lockLimitReached).identifier == "secureMemoryUnavailable")
    }

    @Test func payloadsReadBackOnlyFromTheirKind() {
        #expect(HandoffError.malformed(.typedCode).field == .typedCode)
        #expect(HandoffError.secureMemoryUnavailable(.lockLimitReached).secureMemoryFailure == .lockLimitReached)
        #expect(HandoffError.registryUnavailable(.corrupt).registryFailure == .corrupt)
        let others = Self.everyKind.filter { ![.malformed, .secureMemoryUnavailable, .registryUnavailable].contains($0.code) }
        #expect(others.count == Self.everyKind.count - HandoffError.Field.allCases.count - 2)
        #expect(others.allSatisfy { $0.field == nil && $0.secureMemoryFailure == nil && $0.registryFailure == nil })
    }

    /// `catch HandoffError.expired` matches the same error behind `any Error`, payload included.
    @Test func catchMatchesAStaticMemberOnAnyError() {
        func caught(_ error: HandoffError) -> String {
            do { throw error as any Error } catch HandoffError.expired { return "expired" } catch HandoffError.malformed(.digits) {
                return "digits"
            } catch { return "other" }
        }
        #expect(caught(.expired) == "expired")
        #expect(caught(.malformed(.digits)) == "digits")
        #expect(caught(.malformed(.length)) == "other")
        #expect(caught(.expiryTooFar) == "other")
        #expect(!(HandoffError.expired ~= (CocoaError(.fileNoSuchFile) as any Error)))
    }

    /// The first column of the table in `Spec/errors.md` section 7.2, one identifier per
    /// backticked name.
    static func specIdentifiers() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Spec/errors.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## 7.2 Identifiers").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var found: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let column = line.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
            let names = column.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            found.formUnion(names)
        }
        return found
    }
}
