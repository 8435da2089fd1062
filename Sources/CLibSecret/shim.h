#include <libsecret/secret.h>

// The schema of AccountHandoff's credential items and the few GLib calls Swift cannot make
// (variadic GVariant constructors and readers). Attribute names are the macros below.

#define ACCOUNTHANDOFF_SECRET_SCHEMA_NAME "org.accounthandoff.Credential"
/// The store's namespace: items of two stores never match each other's queries.
#define ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STORE "handoff-store"
/// "staged" or "active".
#define ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STATE "handoff-state"
/// The staged item's name, or the local account ID of an active item.
#define ACCOUNTHANDOFF_SECRET_ATTRIBUTE_ITEM "handoff-item"

static inline const SecretSchema *accounthandoff_secret_schema(void) {
    static const SecretSchema schema = {
        ACCOUNTHANDOFF_SECRET_SCHEMA_NAME, SECRET_SCHEMA_NONE,
        {
            { ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STORE, SECRET_SCHEMA_ATTRIBUTE_STRING },
            { ACCOUNTHANDOFF_SECRET_ATTRIBUTE_STATE, SECRET_SCHEMA_ATTRIBUTE_STRING },
            { ACCOUNTHANDOFF_SECRET_ATTRIBUTE_ITEM, SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

/// A string-to-string table that owns copies of its keys and values.
static inline GHashTable *accounthandoff_attributes_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static inline void accounthandoff_attributes_set(GHashTable *table, const char *key, const char *value) {
    g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}

/// The value of `key` in a string table, or NULL.
static inline const char *accounthandoff_attributes_get(GHashTable *table, const char *key) {
    return (const char *)g_hash_table_lookup(table, key);
}

/// `(s)`
static inline GVariant *accounthandoff_variant_string(const char *value) {
    return g_variant_new("(s)", value);
}

/// `(ss)`
static inline GVariant *accounthandoff_variant_two_strings(const char *first, const char *second) {
    return g_variant_new("(ss)", first, second);
}

/// The object path in an `(o)` reply, copied (free with g_free).
static inline char *accounthandoff_variant_object_path(GVariant *reply) {
    const char *path = NULL;
    g_variant_get(reply, "(&o)", &path);
    return g_strdup(path);
}

/// The boolean in a `(v)` reply holding `b`; -1 when it holds another type.
static inline int accounthandoff_variant_boxed_boolean(GVariant *reply) {
    GVariant *inner = NULL;
    g_variant_get(reply, "(v)", &inner);
    int result = -1;
    if (inner != NULL && g_variant_is_of_type(inner, G_VARIANT_TYPE_BOOLEAN)) result = g_variant_get_boolean(inner) ? 1 : 0;
    if (inner != NULL) g_variant_unref(inner);
    return result;
}

/// The name of a GError's domain (for example "g-dbus-error-quark").
static inline const char *accounthandoff_error_domain(const GError *error) {
    return g_quark_to_string(error->domain);
}
