/// The name of a credential item written under a fresh name that no account refers to yet.
///
/// A credential store chooses the name when it stages a credential; the name never depends
/// on the secret. Until an account's metadata commit refers to it, a staged item is a leftover
/// that recovery deletes.
public struct StagedCredential: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Longest accepted name.
    public static let maximumLength = 80

    /// The store's item name (for example `staged-<uuid>`).
    public let name: String

    /// Accepts `name` if it uses only `A-Z a-z 0-9 . _ -` (not starting with a dot); `nil` otherwise.
    public init?(name: String) {
        guard IdentifierText.isSafe(name, maximumLength: Self.maximumLength) else { return nil }
        self.name = name
    }

    /// The name.
    public var description: String { name }

    /// Orders by name.
    public static func < (lhs: StagedCredential, rhs: StagedCredential) -> Bool { lhs.name < rhs.name }
}
