import AccountHandoff
import AccountHandoffImport
import CLibSecret
import Foundation

/// The libsecret calls the store makes, one at a time in this process (libsecret shares one
/// connection and one service proxy per process), each reporting a GLib error as the
/// ``CredentialStoreError`` it means. Secrets pass only as `SecretValue`s, which libsecret
/// keeps in non-pageable memory. Each call is a synchronous D-Bus round trip (and may wait
/// for the keyring), so it runs through ``AccountHandoff/BlockingCall``: the import calls the
/// store on the ``AccountHandoff/BlockingIOPool``.
enum SecretServiceCalls {
    private static let lock = NSLock()

    /// Stores `value` under `attributes` in the default collection, replacing an item with
    /// the same attributes.
    static func store(_ value: OpaquePointer, attributes: ItemAttributes, label: String) throws(CredentialStoreError) {
        try call("secret_password_storev_binary_sync", attributes) { table, error in
            _ = secret_password_storev_binary_sync(accounthandoff_secret_schema(), table, SECRET_COLLECTION_DEFAULT, label, value, nil, error)
        }
    }

    /// The secret of the item with `attributes`, or `nil` when none exists. Release it with
    /// `secret_value_unref`.
    static func lookup(_ attributes: ItemAttributes) throws(CredentialStoreError) -> OpaquePointer? {
        var found: OpaquePointer?
        try call("secret_password_lookupv_binary_sync", attributes) { table, error in
            found = secret_password_lookupv_binary_sync(accounthandoff_secret_schema(), table, nil, error)
        }
        return found
    }

    /// Deletes every item matching `attributes`; nothing matching counts as success.
    static func clear(_ attributes: ItemAttributes) throws(CredentialStoreError) {
        try call("secret_password_clearv_sync", attributes) { table, error in
            _ = secret_password_clearv_sync(accounthandoff_secret_schema(), table, nil, error)
        }
    }

    /// The `handoff-item` attribute of every item matching `attributes`, sorted. Reads
    /// attributes only: no secret is loaded and nothing is unlocked.
    static func items(matching attributes: ItemAttributes) throws(CredentialStoreError) -> [String] {
        var names: [String] = []
        try call("secret_password_searchv_sync", attributes) { table, error in
            let flags = SecretSearchFlags(rawValue: SECRET_SEARCH_ALL.rawValue)
            guard let list = secret_password_searchv_sync(accounthandoff_secret_schema(), table, flags, nil, error) else { return }
            var node: UnsafeMutablePointer<GList>? = list
            while let current = node {
                if let item = current.pointee.data {
                    let found = secret_retrievable_get_attributes(OpaquePointer(item))
                    if let found, let name = accounthandoff_attributes_get(found, ACCOUNTHANDOFF_SECRET_ATTRIBUTE_ITEM) {
                        names.append(String(cString: name))
                    }
                    if let found { g_hash_table_unref(found) }
                }
                node = current.pointee.next
            }
            g_list_free_full(list, g_object_unref)
        }
        return names.sorted()
    }

    /// Runs `body` under the lock with the attribute table and an error slot, then maps the
    /// error it left, if any.
    private static func call(_ operation: StaticString, _ attributes: ItemAttributes,
                             _ body: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Void) throws(CredentialStoreError) {
        let table = attributes.table()
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        BlockingCall.run(operation) { lock.withLock { body(table, &error) } }
        if let error { throw SecretServiceError.map(error, operation: "\(operation)") }
    }
}

/// The attributes that name one item, or (with `item` left out) a set of items.
struct ItemAttributes {
    enum State: String {
        case staged, active
    }

    let namespace: String
    let state: State
    let item: String?

    /// A new GHashTable holding copies of the attributes (release with `g_hash_table_unref`).
    func table() -> OpaquePointer {
        let table = accounthandoff_attributes_new()!
        accounthandoff_attributes_set(table, ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STORE, namespace)
        accounthandoff_attributes_set(table, ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STATE, state.rawValue)
        if let item { accounthandoff_attributes_set(table, ACCOUNTHANDOFF_SECRET_ATTRIBUTE_ITEM, item) }
        return table
    }
}

/// GLib errors as credential-store errors.
enum SecretServiceError {
    /// Maps `error` (and frees it): a missing bus or service becomes its own case; anything
    /// else is a ``StoreFailure`` naming the operation and the error's domain, never its
    /// message (which may quote paths or attributes).
    static func map(_ error: UnsafeMutablePointer<GError>, operation: String) -> CredentialStoreError {
        defer { g_error_free(error) }
        let domain = String(cString: accounthandoff_error_domain(error))
        let code = error.pointee.code
        if domain == "g-dbus-error-quark" {
            switch GDBusError(rawValue: UInt32(code)) {
            case G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER: return .secretServiceUnavailable
            default: break
            }
        }
        if domain == "g-io-error-quark", code == Int32(G_IO_ERROR_NOT_FOUND.rawValue) || code == Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue) {
            return .sessionBusUnavailable
        }
        if domain == "secret-error", code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) { return .keyringLocked }
        return .failed(StoreFailure(operation: "\(operation) (\(domain))", domain: .secretService, code: code))
    }
}
