import AccountHandoff
import AccountHandoffImport
import CLibSecret
import Foundation

/// Asks the session bus, with plain D-Bus calls that never prompt, whether the Secret
/// Service can take a password now: a bus, a service on it, a default collection, unlocked.
/// The calls are synchronous round trips and run through ``AccountHandoff/BlockingCall``.
/// The answers are read fresh every time (libsecret's cached proxies are not consulted, since
/// nothing here runs a main loop that would update them).
enum SecretServiceReachability {
    /// How long one D-Bus call may take.
    static let timeoutMilliseconds: Int32 = 5_000
    static let serviceName = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"

    /// Throws the first reason the default collection cannot take a password now.
    static func requireWritableDefaultCollection() throws(CredentialStoreError) {
        guard sessionBusIsConfigured() else { throw .sessionBusUnavailable }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = BlockingCall.run("g_bus_get_sync", { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) }) else {
            if let error { g_error_free(error) }
            throw .sessionBusUnavailable
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let alias = try call(bus, path: servicePath, interface: "org.freedesktop.Secret.Service", method: "ReadAlias",
                             parameters: accounthandoff_variant_string("default"))
        defer { g_variant_unref(alias) }
        guard let copied = accounthandoff_variant_object_path(alias) else { throw .keyringHasNoDefaultCollection }
        let collection = String(cString: copied)
        g_free(copied)
        guard collection != "/" else { throw .keyringHasNoDefaultCollection }
        let locked = try call(bus, path: collection, interface: "org.freedesktop.DBus.Properties", method: "Get",
                              parameters: accounthandoff_variant_two_strings("org.freedesktop.Secret.Collection", "Locked"))
        defer { g_variant_unref(locked) }
        switch accounthandoff_variant_boxed_boolean(locked) {
        case 0: return
        case 1: throw .keyringLocked
        default: throw .failed(StoreFailure(.readingKeyringReply(method: "Get(Collection.Locked)"), domain: .secretService, code: 0))
        }
    }

    /// Whether GLib would find a session bus without launching one: an address in the
    /// environment, or the per-user bus socket in `XDG_RUNTIME_DIR`. (GLib would otherwise
    /// try to autolaunch a bus through X11, which is not a bus the person's keyring is on.)
    static func sessionBusIsConfigured() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return lstat(runtime + "/bus", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    private static func call(_ bus: OpaquePointer, path: String, interface: String, method: String,
                             parameters: OpaquePointer) throws(CredentialStoreError) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let reply = BlockingCall.run("g_dbus_connection_call_sync") {
            g_dbus_connection_call_sync(bus, serviceName, path, interface, method, parameters, nil,
                                        G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error)
        }
        if let reply { return reply }
        guard let error else { throw .failed(StoreFailure(.readingKeyringReply(method: method), domain: .secretService, code: 0)) }
        throw SecretServiceError.map(error, operation: method)
    }
}
