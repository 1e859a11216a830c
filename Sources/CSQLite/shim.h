#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift
/// cannot import: expose it as a function.
static inline sqlite3_destructor_type _seedstore_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `SQLITE_STATIC`, likewise.
static inline sqlite3_destructor_type _seedstore_sqlite_static(void) {
    return SQLITE_STATIC;
}
