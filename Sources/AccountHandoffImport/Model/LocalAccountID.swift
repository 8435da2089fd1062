import Foundation

/// This device's own key for a stored account: the database primary key and the Keychain
/// item's account attribute. Distinct from the cross-device ``AccountHandoff/AccountLinkID``,
/// which a transfer preserves; a new local ID is made only when an import adds an account.
///
/// The value is restricted to `A-Z a-z 0-9 . _ -` (1 to 64 characters, not starting with a
/// dot) so that it is safe as a file name and as a Keychain attribute.
public struct LocalAccountID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Longest accepted raw value.
    public static let maximumLength = 64

    /// The identifier text.
    public let rawValue: String

    /// Accepts `rawValue` if it uses only the allowed characters; `nil` otherwise.
    public init?(rawValue: String) {
        guard IdentifierText.isSafe(rawValue, maximumLength: Self.maximumLength) else { return nil }
        self.rawValue = rawValue
    }

    /// The lower-case UUID string of `uuid`.
    public init(uuid: UUID) {
        self.rawValue = uuid.uuidString.lowercased()
    }

    /// A new random identifier (a version 4 UUID).
    public static func random() -> LocalAccountID {
        LocalAccountID(uuid: UUID())
    }

    /// The raw value.
    public var description: String { rawValue }

    /// Orders by raw value, so listings are stable.
    public static func < (lhs: LocalAccountID, rhs: LocalAccountID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The character rule shared by local account IDs and staged item names.
enum IdentifierText {
    static func isSafe(_ text: String, maximumLength: Int) -> Bool {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumLength, scalars.first != "." else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": true
            default: false
            }
        }
    }
}
