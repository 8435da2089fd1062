import AccountHandoff
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import Foundation

/// Where an imported account and its password are, for the person after an import: no mail
/// app reads the store by itself, so the sentence names the store, and the keyring item (its
/// label and attributes) or the password file.
enum StoredPlace {
    /// The sentence for the stored account with `linkID`; `nil` when the store does not hold
    /// it (or cannot be read). Blocks (reads the store).
    static func sentence(for linkID: AccountLinkID, in store: ReceiverStore) -> String? {
        guard let stored = try? store.metadata.listAccounts().first(where: { $0.metadata.linkID == linkID }) else { return nil }
        let directory = store.directory.path
        switch store.choice {
        case .files:
            return sentenceCatalog.sentence("stored.files", .text(directory), .text(stored.id.rawValue), .text(store.metadata.credentialFile(for: stored.id).path), in: .cli)
        case .keyring(let namespace):
            let item = SecretServiceCredentialStore(namespace: namespace).activeItem(for: stored.id)
            let attributes = item.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            let lookup = item.attributes.filter { $0.name != "handoff-state" }.map { "\($0.name) \($0.value)" }.joined(separator: " ")
            return sentenceCatalog.sentence("stored.keyring", .text(directory), .text(stored.id.rawValue), .text(item.label), .text(attributes), .text(lookup), in: .cli)
        }
    }
}
