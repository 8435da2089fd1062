#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound value.
static inline sqlite3_destructor_type accounthandoff_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
