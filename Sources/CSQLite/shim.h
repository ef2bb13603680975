#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions; these fixed-argument wrappers stand in for the few
// configuration calls SQLiteDB makes.

static inline int csqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}

// Memory statistics off: with them on (SQLite's default), every allocation SQLite makes takes
// a global mutex to count it, a fiftieth of a 100,000-line `add -`. Nothing here reads them
// (`sqlite3_memory_used`, `sqlite3_status`). Has effect only before SQLite initializes.
static inline int csqlite_config_no_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// The empty text, bound without a copy: SQLITE_STATIC needs storage that outlives the statement,
// which a Swift string's bytes are not promised to be; a C literal is. Bound with
// SQLITE_TRANSIENT, each empty column of a row was an allocation (a third of `add -`'s binds).
static inline int csqlite_bind_empty_text(sqlite3_stmt *statement, int index) {
    return sqlite3_bind_text(statement, index, "", 0, SQLITE_STATIC);
}

#endif
